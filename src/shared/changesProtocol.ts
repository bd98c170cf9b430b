// Messages between the Changes view's script (src/renderer/changesView.ts) and its host
// (src/views/changesPanel.ts), beside the grid's paging messages (./gridPaging.ts), which travel
// on the same channel. The host accepts only messages that parse here or there.
import type { Cell } from './wire';

export type DiffKind = 'added' | 'modified' | 'removed';
export const DIFF_KINDS: readonly DiffKind[] = ['added', 'modified', 'removed'];

/** One changed table as the list on the left shows it. */
export interface ChangedTableItem {
  table: string;
  /** added, dropped, modified or renamed (from → to name). */
  change: string;
  fromTable: string | null;
  added: number | null;
  /** null where Dolt cannot tell (keyless tables). */
  modified: number | null;
  removed: number | null;
  schemaChanged: boolean;
  dataChanged: boolean;
}

/** Host → view. */
export type ChangesHostMessage =
  /** The pair and its tables (or why they could not be read). */
  | {
      type: 'changes.list';
      title: string;
      /** e.g. `a1b2c3d → e4f5a6b in alice/prices`. */
      subtitle: string;
      tables: ChangedTableItem[];
      /** Set when the server cut the list short: the view says it is partial. */
      partial?: string;
      error?: string;
    }
  /**
   * The table whose diff the grid shows now (a `paged.show` follows). `unsent`: an unsent change
   * set (issue #23), which has no schema diff, no SQL patch and every column shown.
   */
  | {
      type: 'changes.table';
      table: string;
      kinds: DiffKind[];
      hideUnchanged: boolean;
      note?: string;
      unsent?: boolean;
      /** An open pull's branch: the view offers to edit the table there (a suggested change, issue #23). */
      editAt?: string;
    }
  /** Part of the selected table's diff could not be read (timeout, count cut short). */
  | { type: 'changes.partial'; table: string; message: string }
  | { type: 'changes.error'; message: string }
  | { type: 'changes.busy'; busy: boolean }
  /**
   * The comment threads on one row or cell of a pull's diff, shown beside the grid (none: close it).
   * `refresh`: the pull's comments changed elsewhere; shown only if the pane shows `about` now.
   */
  | { type: 'changes.thread'; about: string; threads: ThreadPaneItem[]; refresh?: boolean };

/** One thread as the pane beside the Changes grid shows it: plain text only (set as textContent). */
export interface ThreadPaneItem {
  rootId: string;
  /** What it is about: `suppliers, id = 3, rating`. */
  about: string;
  comments: {
    id: string;
    author: string;
    createdAt: string;
    /** The comment's markdown source, shown as text. */
    text: string;
    /** A suggested value (null: NULL), and the commit it was applied in when a reply says so. */
    suggestion?: { value: Cell; appliedIn?: string };
  }[];
}

/** View → host. */
export type ChangesViewMessage =
  | { type: 'ready' }
  | { type: 'changes.select'; table: string }
  | { type: 'changes.kinds'; kinds: DiffKind[] }
  | { type: 'changes.hideUnchanged'; on: boolean }
  | { type: 'changes.schemaDiff' }
  | { type: 'changes.exportPatch' }
  | { type: 'changes.editAtHead' }
  | { type: 'changes.reload' }
  /** Reply on a thread shown in the pane beside the grid (the thread's first comment id). */
  | { type: 'changes.threadReply'; rootId: string };

const MAX_NAME = 1024;

/** Checks a message from the view; undefined when it is not one of ours. */
export function parseChangesViewMessage(raw: unknown): ChangesViewMessage | undefined {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const m = raw as Record<string, unknown>;
  switch (m['type']) {
    case 'ready':
      return { type: 'ready' };
    case 'changes.select': {
      const t = m['table'];
      return typeof t === 'string' && t.length > 0 && t.length <= MAX_NAME ? { type: 'changes.select', table: t } : undefined;
    }
    case 'changes.kinds': {
      const k = m['kinds'];
      if (!Array.isArray(k) || k.length === 0 || k.length > 3) return undefined;
      if (!k.every((x) => (DIFF_KINDS as readonly unknown[]).includes(x))) return undefined;
      return { type: 'changes.kinds', kinds: DIFF_KINDS.filter((x) => k.includes(x)) };
    }
    case 'changes.hideUnchanged':
      return typeof m['on'] === 'boolean' ? { type: 'changes.hideUnchanged', on: m['on'] } : undefined;
    case 'changes.schemaDiff':
    case 'changes.exportPatch':
    case 'changes.editAtHead':
    case 'changes.reload':
      return { type: m['type'] };
    case 'changes.threadReply': {
      const rootId = m['rootId'];
      return typeof rootId === 'string' && rootId !== '' && rootId.length <= 256 ? { type: 'changes.threadReply', rootId } : undefined;
    }
    default:
      return undefined;
  }
}
