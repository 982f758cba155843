import type { DataObject } from './model'

/** Interns objects to ordinals in the order they are first seen. */
export class Interner {
  readonly objects: DataObject[] = []
  readonly ordinals = new Map<string, number>()

  ordinalOf(object: DataObject): number {
    let ordinal = this.ordinals.get(object.id)
    if (ordinal === undefined) {
      ordinal = this.objects.length
      this.objects.push(object)
      this.ordinals.set(object.id, ordinal)
    }
    return ordinal
  }
}
