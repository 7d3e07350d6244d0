/**
 * Hides the rows of a list that do not fit whole (never cut one at the bottom). The list's height
 * comes from its column, never from its rows. A ResizeObserver keeps the list's height and each
 * row's, and rows are hidden from those figures: a row's text changing measures nothing, and a
 * new order of rows (the wall's ranking can reorder with each status batch at 10,000 farms) only
 * adds heights up, with no layout read. A new row is measured by the observer before the frame
 * is painted.
 */
export class WholeRows {
  private list: HTMLElement | null = null;
  private listHeight = 0;
  /** Each row's height, by its element; 0 until the observer has measured it. */
  private readonly rows = new Map<Element, number>();
  private readonly observer = new ResizeObserver((entries) => {
    for (const entry of entries) {
      if (entry.target === this.list) this.listHeight = entry.contentRect.height;
      else if (this.rows.has(entry.target))
        this.rows.set(entry.target, entry.borderBoxSize[0]?.blockSize ?? entry.contentRect.height);
    }
    this.hideCut();
  });

  /** Watches this list until the returned function is called. */
  attach(list: HTMLElement): () => void {
    this.list = list;
    this.observer.observe(list);
    this.rowsChanged();
    return () => {
      this.observer.disconnect();
      this.rows.clear();
      this.list = null;
    };
  }

  /** After rows came, went or moved: the new ones measured, the gone ones forgotten. */
  rowsChanged(): void {
    const list = this.list;
    if (!list) return;
    const current = new Set(list.children);
    for (const row of this.rows.keys())
      if (!current.has(row)) {
        this.observer.unobserve(row);
        this.rows.delete(row);
      }
    for (const row of current)
      if (!this.rows.has(row)) {
        this.rows.set(row, 0);
        this.observer.observe(row);
      }
    this.hideCut();
  }

  private hideCut(): void {
    if (!this.list) return;
    let bottom = 0;
    for (const row of this.list.children as HTMLCollectionOf<HTMLElement>) {
      bottom += this.rows.get(row) ?? 0;
      const visibility = bottom > this.listHeight + 0.5 ? 'hidden' : '';
      if (row.style.visibility !== visibility) row.style.visibility = visibility;
    }
  }
}
