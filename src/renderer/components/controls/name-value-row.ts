/** What a name = value row shows: its two texts, the names of its boxes and of its Remove button, and its problem. */
export interface NameValueRowView {
  name: string
  value: string
  nameLabel: string
  valueLabel: string
  removeLabel: string
  problem: string | null
  /** The name box's id, where something focuses it (a row just added). */
  nameId?: string
}
