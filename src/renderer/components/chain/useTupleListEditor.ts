import { computed, ref, watch, type Ref } from 'vue'
import { formatTupleList, parseFilterValue, parseTupleList, type Tuple, type TupleValue } from '../../../shared/query/tuple'

/**
 * The tuple-list editor's logic: the notation as text (what is sent), and
 * the same list as rows of score and values for pointing and clicking. Rows
 * are read from the text; editing a row writes the text anew.
 */
export function useTupleListEditor(value: Ref<string>, emit: (value: string) => void, bareId: () => boolean = () => false) {
  /** What the user typed: kept as typed while it does not read, so nothing they wrote is lost. */
  const text = ref(value.value)
  watch(value, (next) => {
    if (next !== text.value) text.value = next
  })

  // A facet filter's bare option id reads as that one option with score 1; the text keeps it as written.
  const parsed = computed(() => (text.value.trim() === '' ? null : bareId() ? parseFilterValue(text.value) : parseTupleList(text.value)))
  const tuples = computed<Tuple[]>(() => (parsed.value?.ok ? parsed.value.value : []))
  const error = computed(() => (parsed.value && !parsed.value.ok ? parsed.value.error.message : null))

  function onText(next: string): void {
    text.value = next
    emit(next)
  }

  function write(next: Tuple[]): void {
    text.value = next.length === 0 ? '' : formatTupleList(next)
    emit(text.value)
  }

  /** A value keeps its kind: a number stays a number while what is typed reads as one. */
  function readValue(previous: TupleValue | undefined, typed: string): TupleValue {
    const number = Number(typed)
    return typeof previous === 'number' && typed.trim() !== '' && Number.isFinite(number) ? number : typed
  }

  function setScore(index: number, typed: string): void {
    const score = Number(typed)
    if (typed.trim() === '' || !Number.isFinite(score)) return
    write(tuples.value.map((tuple, i) => (i === index ? { ...tuple, score } : tuple)))
  }

  function setValue(index: number, position: number, typed: string): void {
    write(
      tuples.value.map((tuple, i) =>
        i === index ? { ...tuple, values: tuple.values.map((v, k) => (k === position ? readValue(v, typed) : v)) } : tuple,
      ),
    )
  }

  function addValue(index: number): void {
    write(tuples.value.map((tuple, i) => (i === index ? { ...tuple, values: [...tuple.values, ''] } : tuple)))
  }

  function removeValue(index: number, position: number): void {
    write(tuples.value.map((tuple, i) => (i === index ? { ...tuple, values: tuple.values.filter((_, k) => k !== position) } : tuple)))
  }

  function addTuple(): void {
    write([...tuples.value, { score: 1, values: [''] }])
  }

  function removeTuple(index: number): void {
    write(tuples.value.filter((_, i) => i !== index))
  }

  return { text, tuples, error, onText, setScore, setValue, addValue, removeValue, addTuple, removeTuple }
}
