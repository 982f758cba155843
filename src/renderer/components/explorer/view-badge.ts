/** A tab's figure beside its name (the Tests' count), with what it means in words for a screen reader. */
export interface ViewBadge {
  text: string
  /** good or bad colours it, '' leaves it plain. */
  tone: '' | 'good' | 'bad'
  description: string
}
