/**
 * The first `k` items of `items` in `compare` order, without sorting all of them: a bounded max-heap (the worst kept
 * item on top), O(n log k). A query for "p" matches thousands of documents and shows 20.
 */
export const topK = <A>(items: ReadonlyArray<A>, k: number, compare: (a: A, b: A) => number): Array<A> => {
  if (k <= 0) return []
  if (items.length <= k * 2) return [...items].sort(compare).slice(0, k)
  const heap: Array<A> = []
  const worse = (i: number, j: number) => compare(heap[i]!, heap[j]!) > 0
  const swap = (i: number, j: number) => {
    const t = heap[i]!
    heap[i] = heap[j]!
    heap[j] = t
  }
  for (const item of items) {
    if (heap.length < k) {
      heap.push(item)
      let i = heap.length - 1
      while (i > 0) {
        const parent = (i - 1) >> 1
        if (!worse(i, parent)) break
        swap(i, parent)
        i = parent
      }
    } else if (compare(item, heap[0]!) < 0) {
      heap[0] = item
      let i = 0
      for (;;) {
        const l = 2 * i + 1
        const r = l + 1
        let top = i
        if (l < heap.length && worse(l, top)) top = l
        if (r < heap.length && worse(r, top)) top = r
        if (top === i) break
        swap(i, top)
        i = top
      }
    }
  }
  return heap.sort(compare)
}
