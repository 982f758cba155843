import { afterEach, describe, expect, it } from 'vitest'
import '../../src/renderer/styles/app.css'
import { render } from 'vitest-browser-vue'
import { defineComponent, h, ref } from 'vue'
import { useColumnSheet } from '../../src/renderer/components/results/useColumnSheet'

/**
 * The grid's column widths as one stylesheet scoped to its grid: every cell
 * of a column takes its width (rows added later too), a pinned column gets
 * where it sticks, a second grid keeps widths of its own, and the sheet goes
 * when its grid does.
 */

afterEach(() => {
  document.body.replaceChildren()
})

const widths = ref<number[]>([])
const pinned = ref<ReadonlyMap<number, number>>(new Map())

/** A grid of `rows` rows of three cells, sized by its own sheet. */
const Grid = defineComponent({
  props: { rows: { type: Number, required: true }, widths: { type: Object, required: true }, pinned: { type: Object, required: true } },
  setup(props) {
    const scope = useColumnSheet(props.widths as typeof widths, props.pinned as typeof pinned)
    return () => h('div', { 'data-grid': scope }, Array.from({ length: props.rows }, () => h('div', { class: 'grid__row', style: 'display: flex' }, [0, 1, 2].map((c) => h('span', { style: 'flex: none' }, `c${c}`)))))
  },
})

const cellWidths = (grid: Element) => [...grid.querySelectorAll('.grid__row')].map((row) => [...row.children].map((cell) => (cell as HTMLElement).getBoundingClientRect().width))

describe('useColumnSheet', () => {
  it("sizes every cell of a column, rows added later too, and where a pinned column sticks; another grid's widths are its own", async () => {
    widths.value = [120, 80, 200]
    pinned.value = new Map([[0, 0]])
    const other = ref([50, 50, 50])
    const screen = await render(defineComponent(() => () => [h(Grid, { rows: 2, widths, pinned }), h(Grid, { rows: 1, widths: other, pinned: ref(new Map()) })]))
    const [first, second] = [...screen.container.querySelectorAll('[data-grid]')]
    expect(cellWidths(first!)).toEqual([[120, 80, 200], [120, 80, 200]])
    expect(cellWidths(second!)).toEqual([[50, 50, 50]])
    expect(getComputedStyle(first!.querySelector('.grid__row > :first-child')!).getPropertyValue('--pin-left').trim()).toBe('0px')
    expect(getComputedStyle(first!.querySelector('.grid__row > :nth-child(2)')!).getPropertyValue('--pin-left').trim()).toBe('')

    widths.value = [120, 150, 200]
    await expect.poll(() => cellWidths(first!)).toEqual([[120, 150, 200], [120, 150, 200]])
    expect(cellWidths(second!)).toEqual([[50, 50, 50]])
  })

  it('takes its sheet away when its grid goes', async () => {
    widths.value = [90, 90, 90]
    const before = document.adoptedStyleSheets.length
    const screen = await render(Grid, { props: { rows: 1, widths, pinned } })
    expect(document.adoptedStyleSheets.length).toBe(before + 1)
    screen.unmount()
    expect(document.adoptedStyleSheets.length).toBe(before)
  })
})
