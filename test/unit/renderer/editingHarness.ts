// The page side of the grid editing browser tests: the real grid and the real change set model,
// which the page's fake host applies the grid's requests to as the extension host does
// (src/views/tableEditing.ts), so the test drives both through the DOM. Bundled by the test.
import { ResultGrid } from '../../../src/renderer/resultGrid';
import { ChangeSet } from '../../../src/core/changes/changeSet';

(globalThis as unknown as { VdbEdit: unknown }).VdbEdit = { ResultGrid, ChangeSet };
