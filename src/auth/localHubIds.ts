// The built-in local hub's host id and label, vscode-free so command logic and tests can use them.
import * as l10n from '../shared/l10n';

/**
 * Not its URL: the hub listens on a fresh port each start, and databases, accounts and notebooks
 * keyed by this id must survive restarts.
 */
export const LOCAL_HUB_HOST_ID = 'local-hub';
/** A function: the label is translated when shown, not when this module loads. */
export const LOCAL_HUB_LABEL = (): string => l10n.t('Local Hub');
