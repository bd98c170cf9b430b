// What the notebook's commands need, in the notebook layer's own terms (it may not import
// CommandDeps from commands/): one bag, narrowed with Pick where a flow needs less.
import type { Logger } from '../core/logger';
import type { Ui } from '../platform/ui';
import type { DatabaseRef } from '../shared/wire';
import type { HostClients } from '../auth/clientSource';
import type { RefResolver } from './queryRunner';
import type { QueryHistoryStore } from './queryHistoryStore';
import type { SqlResultPanel } from './sqlResultPanel';
import type { SqlSettings } from '../platform/settings';
import type { SqlPort } from '../core/sql/sqlPort';
import type { EditorTargets } from './sqlEditorTargets';

export interface NotebookCommandDeps {
  readonly ui: Ui;
  readonly clients: HostClients;
  /** The one way to run SQL at a target (src/core/sql/sqlPort.ts). */
  readonly sql: SqlPort;
  readonly databases: { hostIds(): string[]; list(hostId: string): readonly DatabaseRef[] };
  readonly refs: RefResolver;
  readonly history: QueryHistoryStore;
  readonly panel: SqlResultPanel;
  readonly settings: () => SqlSettings;
  readonly editorTargets: EditorTargets;
  readonly onTargetsChanged: () => void;
  readonly log: Logger;
}
