// The built-in local hub's host id and label, vscode-free so command logic and tests can use them.

/**
 * Not its URL: the hub listens on a fresh port each start, and databases, accounts and notebooks
 * keyed by this id must survive restarts.
 */
export const LOCAL_HUB_HOST_ID = 'local-hub';
export const LOCAL_HUB_LABEL = 'Local Hub';
