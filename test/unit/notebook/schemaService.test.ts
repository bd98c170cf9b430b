import { strict as assert } from 'node:assert';
import type { Branch, QueryResult, Tag } from '../../../src/shared/wire';
import type { DbRef, Page, RunSqlOptions } from '../../../src/api/index';
import { silentLogger } from '../../../src/core/logger';
import { RefResolver, type RefLister } from '../../../src/notebook/queryRunner';
import { portOver } from '../../helpers/sqlPorts';
import { SchemaService } from '../../../src/notebook/schemaService';

class SchemaClient implements RefLister {
  head = 'a'.repeat(32);
  queries: { ref: string; q: string }[] = [];
  async runSql(_db: DbRef, q: RunSqlOptions): Promise<QueryResult> {
    this.queries.push({ ref: q.ref, q: q.q });
    if (q.q === 'SHOW TABLES')
      return { status: 'success', columns: [{ name: 'Tables_in_db', type: 'text' }], rows: [['orders'], ['order items']] };
    return {
      status: 'success',
      columns: ['Field', 'Type', 'Null', 'Key'].map((name) => ({ name, type: 'text' })),
      rows: [['id', 'bigint', 'NO', 'PRI']],
    };
  }
  async listBranches(): Promise<Page<Branch>> {
    return { items: [{ name: 'main', head_commit_sha: this.head }] };
  }
  async listTags(): Promise<Page<Tag>> {
    return { items: [] };
  }
}

describe('schema for completion', () => {
  const target = { hostId: 'h', owner: 'alice', name: 'shop', ref: 'main' };

  it('reads SHOW TABLES and DESCRIBE at the commit the ref points at, quoting odd names', async () => {
    const c = new SchemaClient();
    const s = new SchemaService(portOver(c), new RefResolver(() => c), silentLogger);
    const schema = await s.schemaFor(target);
    assert.deepEqual(
      schema.tables.map((t) => t.name),
      ['orders', 'order items'],
    );
    assert.deepEqual(schema.tables[0]!.columns, [{ name: 'id', type: 'bigint', nullable: false, primaryKey: true }]);
    assert.ok(
      c.queries.every((q) => q.ref === c.head),
      'queries ran at the resolved commit',
    );
    assert.ok(c.queries.some((q) => q.q === 'DESCRIBE `order items`'));
  });

  it('is cached by commit: the same head reuses it, a moved branch fetches again', async () => {
    const c = new SchemaClient();
    let now = 0;
    const s = new SchemaService(
      portOver(c),
      new RefResolver(
        () => c,
        1000,
        () => now,
      ),
      silentLogger,
    );
    await s.schemaFor(target);
    const first = c.queries.length;
    now = 5000; // the ref is looked up again, but the head has not moved
    await s.schemaFor(target);
    assert.equal(c.queries.length, first);
    c.head = 'b'.repeat(32);
    now = 10_000;
    await s.schemaFor(target);
    assert.equal(c.queries.length, first * 2);
  });
});
