// What the merge confirmation and the pull view's "Before merging" section say, from a preview:
// counts per table, conflicts, and never "clean" when an answer was partial. Server text is escaped.
import { strict as assert } from 'node:assert';
import { mergeConfirmationDetail, type MergePreview } from '../../../../src/core/review/mergePreview';
import { renderMergePreviewSection } from '../../../../src/core/pullMergePreviewPage';
import { twoDot } from '../../../../src/core/review/revisions';
import type { MergeImpact } from '../../../../src/core/review/tableChanges';

const H1 = 'a'.repeat(32);
const H2 = 'b'.repeat(32);
function preview(impact: Partial<MergeImpact>, complete = true): Extract<MergePreview, { kind: 'ready' }> {
  return {
    kind: 'ready',
    impact: { tables: [], rowsChanged: 0, conflictingTables: [], willConflict: false, ...impact },
    completeness: complete ? { complete: true } : { complete: false, reason: 'timeout' },
    conflictsAt: { db: { owner: 'a', name: 'b' }, ours: 'main', theirs: 'x' },
    pair: twoDot(H1, H2),
    diffDb: { owner: 'a', name: 'b' },
  };
}
const products = {
  table: 'products',
  fromTable: 'products',
  toTable: 'products',
  kind: 'modified' as const,
  dataChanged: true,
  schemaChanged: false,
  rows: { added: 2, modified: 1, removed: 1 },
};
const suppliers = {
  table: 'suppliers',
  fromTable: 'suppliers',
  toTable: 'suppliers',
  kind: 'modified' as const,
  dataChanged: true,
  schemaChanged: true,
  rows: { added: 0, modified: 3, removed: 0 },
};

describe('merge confirmation and preview section', () => {
  it('names every table with its counts and says a clean merge is clean', () => {
    const d = mergeConfirmationDetail(preview({ tables: [products, suppliers], rowsChanged: 7 }), 'This merges x into main.');
    assert.equal(
      d,
      [
        'This merges x into main.',
        '',
        'It changes 7 rows in 2 tables:',
        '• products: 2 added, 1 modified, 1 removed',
        '• suppliers: 3 modified (schema changed)',
        '',
        'No conflicts: it merges cleanly.',
      ].join('\n'),
    );
  });

  it('says where it conflicts', () => {
    const d = mergeConfirmationDetail(
      preview({
        tables: [suppliers],
        rowsChanged: 3,
        willConflict: true,
        conflictingTables: [{ table: 'suppliers', dataConflicts: 2, schemaConflicts: 0 }],
      }),
      'i',
    );
    assert.match(d, /It will conflict in suppliers \(2 rows\)/);
    assert.doesNotMatch(d, /cleanly/);
  });

  it('a partial answer is never called clean: the count is a lower bound and the verdict unknown', () => {
    const d = mergeConfirmationDetail(preview({ tables: [products], rowsChanged: 4, willConflict: 'unknown' }, false), 'i');
    assert.match(d, /It changes at least 4 rows in 1 table:/);
    assert.match(d, /Whether it conflicts is not known: the server timed out/);
    assert.doesNotMatch(d, /cleanly|No conflicts/);
    const html = renderMergePreviewSection({
      kind: 'done',
      preview: preview({ tables: [products], rowsChanged: 4, willConflict: 'unknown' }, false),
      conflicts: [],
    });
    assert.match(html, /data-state="unknown"/);
    assert.match(html, /At least 4 rows change/);
    assert.doesNotMatch(html, /cleanly/);
  });

  it('an unavailable preview says why, in both places', () => {
    const p: MergePreview = { kind: 'unavailable', reason: 'The fork lacks <main>.' };
    assert.match(mergeConfirmationDetail(p, 'i'), /No preview: The fork lacks <main>\./);
    assert.match(renderMergePreviewSection({ kind: 'done', preview: p, conflicts: [] }), /The fork lacks &lt;main&gt;\./);
  });

  it('shows conflicting rows with base, ours and theirs, marks the cells that disagree, and escapes server text', () => {
    const html = renderMergePreviewSection({
      kind: 'done',
      preview: preview({
        tables: [suppliers],
        rowsChanged: 3,
        willConflict: true,
        conflictingTables: [{ table: 'suppliers', dataConflicts: 3, schemaConflicts: 0 }],
      }),
      conflicts: [
        {
          table: 'suppliers',
          page: {
            columns: ['id', 'name<b>'],
            rows: [
              {
                id: '1',
                base: ['1', 'Old'],
                ours: ['1', '<script>x</script>'],
                theirs: ['1', 'Theirs'],
                ourChange: 'modified',
                theirChange: 'modified',
                differs: [false, true],
              },
            ],
            hasMore: true,
            completeness: { complete: true },
          },
        },
      ],
    });
    assert.doesNotMatch(html, /<script>|name<b>/);
    assert.match(html, /&lt;script&gt;x&lt;\/script&gt;/);
    assert.equal((html.match(/class="differs"/g) ?? []).length, 2, 'ours and theirs of the disagreeing column');
    assert.match(html, /<th scope="row">base<\/th>/);
    assert.match(html, /Showing the first 1 conflicting row of 3\./);
    assert.match(html, /data-state="conflicts"/);
  });
});
