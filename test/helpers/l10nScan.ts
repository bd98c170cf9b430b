// The scanner of test/unit/l10n.test.ts: the visible literals of a TypeScript file that bypass l10n.t.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const CALL_SINKS = new Set([
  'confirm',
  'choose',
  'withProgress',
  'announce',
  'showInformationMessage',
  'showWarningMessage',
  'showErrorMessage',
  'setStatusBarMessage',
  'createTextNode',
]);
const PROP_SINKS = new Set([
  'title',
  'prompt',
  'placeholder',
  'placeHolder',
  'label',
  'description',
  'detail',
  'tooltip',
  'ariaLabel',
  'text',
  'emptyText',
  'textContent',
  'innerText',
  'saveLabel',
  'openLabel',
  // the phrase an error names (`Could not {action}`)
  'action',
]);
/** Calls whose arguments after the first are answers a person picks (the message comes first). */
const ACTION_CALLS = new Set(['info', 'confirm', 'choose', 'showInformationMessage', 'showWarningMessage', 'showErrorMessage']);
const ATTR_SINKS = new Set(['aria-label', 'title', 'placeholder', 'aria-description', 'aria-roledescription']);

function words(text: string): boolean {
  const bare = text
    .replace(/\$\([\w~-]+\)/g, ' ')
    .replace(/\$\{[^}]*\}/g, ' ')
    .replace(/\{\d+\}/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&\w+;/g, ' ');
  return /\p{L}{2}/u.test(bare);
}

/** The literals (or templates) with words in an expression, through ( ), [ ], ?:, + , ?? and ||. */
function literals(n: ts.Node): ts.Node[] {
  if (ts.isParenthesizedExpression(n)) return literals(n.expression);
  if (ts.isArrayLiteralExpression(n)) return n.elements.flatMap(literals);
  if (ts.isConditionalExpression(n)) return [...literals(n.whenTrue), ...literals(n.whenFalse)];
  if (
    ts.isBinaryExpression(n) &&
    (n.operatorToken.kind === ts.SyntaxKind.PlusToken ||
      n.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken ||
      n.operatorToken.kind === ts.SyntaxKind.BarBarToken)
  )
    return [...literals(n.left), ...literals(n.right)];
  if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) return words(n.text) ? [n] : [];
  if (ts.isTemplateExpression(n)) return words([n.head.text, ...n.templateSpans.map((s) => s.literal.text)].join(' ')) ? [n] : [];
  return [];
}

/** The plain names in an expression, through ( ), [ ], ?: and ??/||. */
function identifiers(n: ts.Node): string[] {
  if (ts.isIdentifier(n)) return [n.text];
  // LABELS[key], and LABELS[key].toLowerCase()
  if (ts.isElementAccessExpression(n)) return identifiers(n.expression);
  if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression)) return identifiers(n.expression.expression);
  if (ts.isParenthesizedExpression(n)) return identifiers(n.expression);
  if (ts.isArrayLiteralExpression(n)) return n.elements.flatMap(identifiers);
  if (ts.isConditionalExpression(n)) return [...identifiers(n.whenTrue), ...identifiers(n.whenFalse)];
  if (ts.isBinaryExpression(n) && [ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken].includes(n.operatorToken.kind))
    return [...identifiers(n.left), ...identifiers(n.right)];
  return [];
}

/** Text between tags with words in it (`<h2>Checks</h2>`), or a visible attribute's, in HTML written as a string. */
const HTML_TEXT = /<\/?[a-zA-Z][^<>]*>[^<>]*\p{L}{2}[^<>]*<|\b(?:title|aria-label|placeholder|alt)="[^"]*\p{L}{2}[^"]*"/u;

/** A literal's own text, each ${…} as one control character. */
function ownText(n: ts.Node): string | undefined {
  if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) return n.text;
  if (ts.isTemplateExpression(n)) return n.head.text + n.templateSpans.map((s) => `\u0001${s.literal.text}`).join('');
  return undefined;
}

function calleeName(e: ts.Expression): string | undefined {
  if (ts.isIdentifier(e)) return e.text;
  if (ts.isPropertyAccessExpression(e)) return e.name.text;
  return undefined;
}

/** The visible literals of one file, as `file:line: text`. */
export function bypasses(file: string, text: string): string[] {
  return bypassNodes(file, text).map((b) => b.report);
}

export interface Bypass {
  readonly node: ts.Node;
  readonly report: string;
  readonly html: boolean;
}

/**
 * Constants (UPPER_CASE) a sink shows, in any file, declared in another (`new TreeItem(CATEGORY_LABELS[c])`
 * with CATEGORY_LABELS in treeNodes.ts): the scanner checks their declarations wherever they are.
 */
export const shownConstants = new Set<string>();

/** Reads every file once so `shownConstants` knows what all of them show (before bypassNodes). */
export function collectShownConstants(files: readonly { file: string; text: string }[]): void {
  for (const f of files) bypassNodes(f.file, f.text);
}

/** The visible literal nodes of one file. */
export function bypassNodes(file: string, text: string): Bypass[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: Bypass[] = [];
  // Names a sink shows (`ui.choose(msg, [rebase, sendAnyway])`): their declarations are checked too.
  const shownNames = new Set<string>();
  const flag = (n: ts.Node | undefined, html = false): void => {
    for (const id of n ? identifiers(n) : []) {
      shownNames.add(id);
      if (/^[A-Z][A-Z0-9_]+$/.test(id)) shownConstants.add(id);
    }
    for (const lit of n ? (html ? [n] : literals(n)) : [])
      out.push({
        node: lit,
        html,
        report: `${file}:${sf.getLineAndCharacterOfPosition(lit.getStart()).line + 1}: ${lit.getText().slice(0, 80)}`,
      });
  };
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n)) {
      const name = calleeName(n.expression);
      const receiver = ts.isPropertyAccessExpression(n.expression) ? n.expression.expression.getText(sf) : '';
      // Text in an argument is English glued into a translated sentence: it needs its own message.
      if ((name === 't' || name === 'tHtml') && receiver === 'l10n') n.arguments.slice(1).forEach((a) => flag(a));
      if (name && CALL_SINKS.has(name)) n.arguments.forEach((a) => flag(a));
      if ((name === 'info' || name === 'pick' || name === 'input') && /\bui$/i.test(receiver)) n.arguments.forEach((a) => flag(a));
      if (name === 'report' && /progress$/i.test(receiver))
        for (const a of n.arguments)
          if (!ts.isObjectLiteralExpression(a)) flag(a);
          else for (const p of a.properties) if (ts.isPropertyAssignment(p) && p.name.getText(sf) === 'message') flag(p.initializer);
      if (name === 'setAttribute' && n.arguments[0] && ts.isStringLiteral(n.arguments[0]) && ATTR_SINKS.has(n.arguments[0].text))
        flag(n.arguments[1]);
      if (name === 'el') flag(n.arguments[3]);
      // button(doc, cls, text, title, run) of src/renderer/gridChrome.ts
      if (name === 'button') [n.arguments[2], n.arguments[3]].forEach((a) => flag(a));
    }
    if (ts.isNewExpression(n) && /(TreeItem|StatusBarItem)$/.test(n.expression.getText(sf))) n.arguments?.forEach((a) => flag(a));
    if (ts.isPropertyAssignment(n) && PROP_SINKS.has(n.name.getText(sf).replace(/['"]/g, ''))) flag(n.initializer);
    if (
      ts.isBinaryExpression(n) &&
      n.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isPropertyAccessExpression(n.left) &&
      PROP_SINKS.has(n.left.name.text) &&
      // a <style> element's text is CSS
      !/style$/i.test(n.left.expression.getText(sf))
    )
      flag(n.right);
    if (HTML_TEXT.test(ownText(n) ?? '')) flag(n, true);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  const declarations = (n: ts.Node): void => {
    if (
      ts.isVariableDeclaration(n) &&
      ts.isIdentifier(n.name) &&
      n.initializer &&
      (shownNames.has(n.name.text) || shownConstants.has(n.name.text))
    ) {
      // a table of texts shown by key (LABELS = { branches: 'Branches' })
      let init: ts.Expression = n.initializer;
      while (ts.isAsExpression(init) || ts.isSatisfiesExpression(init) || ts.isParenthesizedExpression(init)) init = init.expression;
      if (!ts.isObjectLiteralExpression(init)) flag(init);
      else for (const p of init.properties) if (ts.isPropertyAssignment(p)) flag(p.initializer);
    }
    ts.forEachChild(n, declarations);
  };
  declarations(sf);
  // An answer compared with English text that the file offers translated as an action
  // (`a === 'Open'` after ui.info(…, l10n.t('Open'))): in another language it is never true.
  const translated = new Set<string>();
  const messageOf = (n: ts.Node): string | undefined =>
    ts.isCallExpression(n) && n.expression.getText(sf) === 'l10n.t' && n.arguments[0] && ts.isStringLiteral(n.arguments[0])
      ? n.arguments[0].text
      : undefined;
  const actions = (n: ts.Node): void => {
    if (ts.isCallExpression(n) && ACTION_CALLS.has(calleeName(n.expression) ?? ''))
      for (const a of n.arguments.slice(1))
        for (const m of (ts.isArrayLiteralExpression(a) ? a.elements : [a]).map(messageOf)) if (m !== undefined) translated.add(m);
    ts.forEachChild(n, actions);
  };
  actions(sf);
  const compared = (n: ts.Node): void => {
    const equality =
      ts.isBinaryExpression(n) &&
      [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken].includes(n.operatorToken.kind);
    for (const side of equality ? [n.left, n.right] : ts.isCaseClause(n) ? [n.expression] : [])
      if (ts.isStringLiteral(side) && translated.has(side.text))
        out.push({
          node: side,
          html: false,
          report: `${file}:${sf.getLineAndCharacterOfPosition(side.getStart()).line + 1}: compared with ${side.getText()}`,
        });
    ts.forEachChild(n, compared);
  };
  compared(sf);
  return out;
}

export function* sources(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* sources(p);
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) yield p;
  }
}
