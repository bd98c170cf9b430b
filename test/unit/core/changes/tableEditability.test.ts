// Where the table browser edits and what it says where it does not.
import { strict as assert } from 'node:assert';
import { tableEditability, type EditabilityInput } from '../../../../src/core/changes/tableEditability';
import { buildExistingKeysQuery, keyBatches } from '../../../../src/core/changes/existingKeys';

const base: EditabilityInput = {
  ref: 'main',
  refKind: 'branch',
  table: 'products',
  tableKind: 'table',
  columns: [
    { name: 'id', type: 'bigint', primaryKey: true, nullable: false },
    { name: 'name', type: 'varchar(255)', primaryKey: false, nullable: false },
    { name: 'logo', type: 'blob', primaryKey: false, nullable: true },
  ],
};

describe('tableEditability', () => {
  it('edits a keyed table at a branch; bytes columns are locked; nullability per column', () => {
    assert.deepEqual(tableEditability(base), {
      keyColumns: [0],
      locked: [null, null, 'logo (blob) holds bytes, which cannot be edited here.'],
      nullable: [false, false, true],
    });
  });

  it('says why not at a tag, a commit, an unknown ref, a view, a keyless table or a float key', () => {
    const why = (i: Partial<EditabilityInput>): string | undefined => tableEditability({ ...base, ...i }).readOnly;
    assert.match(why({ refKind: 'tag', ref: 'v1' }) ?? '', /^Read-only: v1 is a tag\. Open the table at a branch/);
    assert.match(why({ refKind: 'commit' }) ?? '', /shown at a commit/);
    assert.match(why({ refKind: 'unknown' }) ?? '', /could not be found as a branch/);
    assert.match(why({ tableKind: 'view' }) ?? '', /is a view/);
    assert.match(
      why({ columns: base.columns.map((c) => ({ ...c, primaryKey: false })) }) ?? '',
      /has no primary key, so an edited row could not be matched/,
    );
    assert.match(
      why({ columns: [{ name: 'x', type: 'double', primaryKey: true }] }) ?? '',
      /x has a type \(double\) whose values do not print exactly/,
    );
    assert.equal(why({}), undefined);
  });
});

describe('buildExistingKeysQuery', () => {
  it('asks for the keys with quoted names and values (exact numbers bare, text quoted, composite keys ANDed)', () => {
    assert.equal(
      buildExistingKeysQuery('order items', [{ name: 'id', type: 'bigint' }], [['9007199254740993'], ['5']]),
      'SELECT `id` FROM `order items` WHERE `id` IN (9007199254740993, 5)',
    );
    assert.equal(
      buildExistingKeysQuery(
        't',
        [
          { name: 'a`b', type: 'varchar(5)' },
          { name: 'n', type: 'decimal(5,2)' },
        ],
        [
          ["it's", '1.50'],
          ['back\\slash', '-2'],
        ],
      ),
      "SELECT `a``b`, `n` FROM `t` WHERE (`a``b` = 'it''s' AND `n` = 1.50) OR (`a``b` = CAST(X'6261636B5C736C617368' AS CHAR) AND `n` = -2)",
    );
    assert.throws(() => buildExistingKeysQuery('t', [{ name: 'id', type: 'int' }], [[null]]), /NULL/);
  });
});

describe('keyBatches', () => {
  it('cuts keys by count and by text, keeping order and every key', () => {
    const keys = Array.from({ length: 2500 }, (_, i) => [String(i)]);
    assert.deepEqual(
      keyBatches(keys, 1000).map((b) => b.length),
      [1000, 1000, 500],
    );
    const long = Array.from({ length: 5 }, (_, i) => [`${i}${'x'.repeat(30_000)}`]);
    const batches = keyBatches(long, 1000);
    assert.deepEqual(
      batches.map((b) => b.length),
      [2, 2, 1],
      '64 KiB of key text at most',
    );
    assert.deepEqual(batches.flat(), long);
    assert.deepEqual(keyBatches([[String('x'.repeat(100_000))]], 10).length, 1, 'one key longer than the bound still goes, alone');
  });
});
