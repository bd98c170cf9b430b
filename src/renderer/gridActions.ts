// What the grid's mouse and keyboard handling (gridInput.ts, gridKeys.ts) asks of the grid.

/** What the interactions ask of the grid. */
export interface GridActions {
  sortBy(col: number, add: boolean): void;
  openFilter(col: number, anchor: HTMLElement): void;
  retry(row: number): void;
  /** Selection changed; `reveal` scrolls the active cell into view. */
  selectionChanged(reveal: boolean): void;
  showDetail(row: number, col: number): void;
  /** Closes the full-value box when open; returns whether it was. */
  closeDetail(): boolean;
  copy(withFormat: boolean): void;
  /** The text of the selection for the browser's own copy event, or undefined. */
  selectionText(): string | undefined;
  resizeColumn(col: number, width: number): void;
  pageRows(): number;
  /** Editing keys of an editable grid (typing, Delete, Insert, undo ...); true when taken. */
  editKey?(e: KeyboardEvent): boolean;
  /** Text pasted on the focused grid (an editable grid pastes it into its cells). */
  paste?(text: string): void;
}
