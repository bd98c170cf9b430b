// Every identifier VS Code knows us by, declared once. test/unit/ids.test.ts checks these
// against package.json so a renamed command cannot silently lose its menu entry.

export const EXTENSION_ID = 'versioned-db.versioned-db' as const;

export const Commands = {
  showLog: 'versionedDb.showLog',
  // Accounts and the local hub (F1)
  signIn: 'versionedDb.signIn',
  signOut: 'versionedDb.signOut',
  switchAccount: 'versionedDb.switchAccount',
  startLocalHub: 'versionedDb.startLocalHub',
  stopLocalHub: 'versionedDb.stopLocalHub',
  // Databases tree (F1)
  refreshTree: 'versionedDb.refreshTree',
  refreshNode: 'versionedDb.refreshNode',
  loadMore: 'versionedDb.loadMore',
  filterPulls: 'versionedDb.filterPulls',
  addDatabase: 'versionedDb.addDatabase',
  removeDatabase: 'versionedDb.removeDatabase',
  createDatabase: 'versionedDb.createDatabase',
  // Versioning (F1)
  createBranch: 'versionedDb.createBranch',
  createTag: 'versionedDb.createTag',
  createRelease: 'versionedDb.createRelease',
  forkDatabase: 'versionedDb.forkDatabase',
  copyCommitHash: 'versionedDb.copyCommitHash',
  copyDatabaseName: 'versionedDb.copyDatabaseName',
  openOnWeb: 'versionedDb.openOnWeb',
  // Pull requests (F2)
  createPullRequest: 'versionedDb.createPullRequest',
  showPullRequest: 'versionedDb.showPullRequest',
  editPullRequest: 'versionedDb.editPullRequest',
  closePullRequest: 'versionedDb.closePullRequest',
  reopenPullRequest: 'versionedDb.reopenPullRequest',
  commentOnPullRequest: 'versionedDb.commentOnPullRequest',
  mergePullRequest: 'versionedDb.mergePullRequest',
  // SQL notebooks and the result grid (E)
  newSqlNotebook: 'versionedDb.newSqlNotebook',
  pickCellTarget: 'versionedDb.pickCellTarget',
  pickNotebookTarget: 'versionedDb.pickNotebookTarget',
  runSqlInEditor: 'versionedDb.runSqlInEditor',
  showQueryHistory: 'versionedDb.showQueryHistory',
  clearQueryHistory: 'versionedDb.clearQueryHistory',
  // Imports (C)
  importFile: 'versionedDb.importFile',
  // History (issue #15): commits, table and row history
  newSqlNotebookAtCommit: 'versionedDb.newSqlNotebookAtCommit',
  createBranchAtCommit: 'versionedDb.createBranchAtCommit',
  createTagAtCommit: 'versionedDb.createTagAtCommit',
  showTableHistory: 'versionedDb.showTableHistory',
  showRowHistory: 'versionedDb.showRowHistory',
  /** Show Changes on a commit of a Commits list: its ChangesRequest to `showChanges`. */
  showCommitChanges: 'versionedDb.showCommitChanges',
  // Tables at a ref and the table browser (issue #14)
  openTable: 'versionedDb.openTable',
  openTableAt: 'versionedDb.openTableAt',
  newSqlNotebookForTable: 'versionedDb.newSqlNotebookForTable',
  copyTableName: 'versionedDb.copyTableName',
  copyTableSelect: 'versionedDb.copyTableSelect',
  // Review: the Changes view (issue #15, changes)
  showChanges: 'versionedDb.showChanges',
  compareRefs: 'versionedDb.compareRefs',
  // Editing a table (issue #23): the change sets of the table browser. Each takes a ChangeSetScope
  // (src/core/changes/changeSetScope.ts) or, from the palette, asks which change set.
  showChangeSet: 'versionedDb.showChangeSet',
  discardChanges: 'versionedDb.discardChanges',
  /** Registered by the proposing half of issue #23; the grid's Propose Changes… button runs it. */
  proposeChanges: 'versionedDb.proposeChanges',
  // The database's tests (issue #24): on a Tests node, a group or a test of the tree.
  runTests: 'versionedDb.runTests',
  openTestQuery: 'versionedDb.openTestQuery',
  // ...and editing them: dolt_tests in the table browser at the branch, proposed as a pull.
  editTests: 'versionedDb.editTests',
  resolveConflicts: 'versionedDb.resolveConflicts',
  // A text edited over several lines in an editor (src/commands/textEditPrompt.ts)
  useEditedText: 'versionedDb.useEditedText',
  cancelEditedText: 'versionedDb.cancelEditedText',
} as const;

export const Views = {
  container: 'versionedDb',
  databases: 'versionedDb.databases',
} as const;

export const Settings = {
  section: 'versionedDb',
  hosts: 'versionedDb.hosts',
  localHubDataDirectory: 'versionedDb.localHub.dataDirectory',
  localHubStartOnActivation: 'versionedDb.localHub.startOnActivation',
  localHubUserName: 'versionedDb.localHub.userName',
  sqlRowLimit: 'versionedDb.sql.rowLimit',
  sqlTimeoutMs: 'versionedDb.sql.timeoutMs',
  sqlHistorySize: 'versionedDb.sql.historySize',
  notebooksSaveOutputs: 'versionedDb.notebooks.saveOutputs',
} as const;

/**
 * Default and bounds of every numeric setting: the one home the settings reader clamps with and
 * test/unit/ids.test.ts holds package.json's `default`/`minimum`/`maximum` to, both ways.
 */
export const NumericSettings = {
  [Settings.sqlRowLimit]: { default: 1000, minimum: 1, maximum: 10_000_000 },
  [Settings.sqlTimeoutMs]: { default: 30_000, minimum: 1000, maximum: 60_000 },
  [Settings.sqlHistorySize]: { default: 500, minimum: 10, maximum: 5000 },
} as const;

export const ContextKeys = {
  /** True when at least one account is signed in on some host (welcome views). */
  signedIn: 'versionedDb.signedIn',
  /** True when at least one database is in the tree (welcome views). */
  hasDatabases: 'versionedDb.hasDatabases',
  /** True while the built-in local hub runs. */
  localHubRunning: 'versionedDb.localHubRunning',
  /** True while the active editor is a .sql file with a Versioned DB target (scopes Ctrl+Enter). */
  sqlEditorHasTarget: 'versionedDb.sqlEditorHasTarget',
  /** True while the active editor holds a text the extension asked for (its title bar: Use This Text, Cancel). */
  editingText: 'versionedDb.editingText',
} as const;

/**
 * The Get Started walkthrough's steps done in this window (package.json `walkthroughs`, completed
 * `onContext:` these): set once the user has done the step by any route (tree, palette, a view's
 * button), which `onCommand:` events cannot see for commands an extension runs itself. VS Code
 * keeps a step done once it saw it. Set through src/platform/walkthrough.ts.
 */
export const WalkthroughKeys = {
  openedTable: 'versionedDb.walkthrough.openedTable',
  ranQuery: 'versionedDb.walkthrough.ranQuery',
  reviewedPull: 'versionedDb.walkthrough.reviewedPull',
  proposedChange: 'versionedDb.walkthrough.proposedChange',
} as const;

/**
 * The Databases tree's `contextValue`s (package.json menus test them as `viewItem`). Set only from
 * here (src/tree/databaseTreeDataProvider.ts); test/unit/ids.test.ts checks every `viewItem` of
 * package.json names one of these.
 */
export const ContextValues = {
  hostSignedIn: 'host.signedIn',
  hostSignedOut: 'host.signedOut',
  database: 'database',
  branches: 'branches',
  tags: 'tags',
  releases: 'releases',
  pulls: 'pulls',
  forks: 'forks',
  operations: 'operations',
  branch: 'branch',
  tag: 'tag',
  release: 'release',
  pullOpen: 'pull.open',
  pullClosed: 'pull.closed',
  pullMerged: 'pull.merged',
  pullOther: 'pull.other',
  fork: 'fork',
  operationQueued: 'operation.queued',
  operationRunning: 'operation.running',
  operationSucceeded: 'operation.succeeded',
  operationFailed: 'operation.failed',
  operationOther: 'operation.other',
  loadMore: 'loadMore',
  // History (issue #15)
  commits: 'commits',
  commit: 'commit',
  error: 'error',
  message: 'message',
  // Tables at a ref (issue #14)
  tablesAtRef: 'tables',
  table: 'table',
  view: 'table.view',
  column: 'column',
  // The database's tests at a ref (issue #24)
  tests: 'tests',
  /** The Tests node of a branch: its tests can be edited (at a tag they cannot). */
  testsAtBranch: 'tests.branch',
  testGroup: 'testGroup',
  test: 'test',
} as const;

/** The SQL notebook type, its controller and the result grid renderer (package.json `notebooks`, `notebookRenderer`). */
export const Notebooks = {
  type: 'versionedDb.sqlNotebook',
  controller: 'versionedDb.sqlController',
  renderer: 'versionedDb.queryResultRenderer',
} as const;

/**
 * The view type of every webview panel the extension opens: the one home; test/unit/ids.test.ts
 * checks that no `createWebviewPanel` or panel option names another.
 */
export const WebviewTypes = {
  /** The SQL result panel of a .sql editor. */
  sqlResult: 'versionedDb.sqlResult',
  /** The table browser (`products @ main`). */
  tableBrowser: 'versionedDb.tableBrowser',
  pull: 'versionedDb.pull',
  changes: 'versionedDb.changes',
  rowHistory: 'versionedDb.rowHistory',
  /** Settling a pull's conflicts cell by cell (issue #24). */
  resolve: 'versionedDb.resolveConflicts',
} as const;
