// Seed data for checks and conflict resolution: alice/orders, a database that keeps its own tests
// in dolt_tests, with
// - #1 "Bulk orders" that breaks a passing test (a negative quantity), fixes a failing one (the
//   missing email) and leaves one failing (the order total cap), with two CI runs recorded on its
//   branch, one succeeded and one failed;
// - #2 "Relocate Ana and fix order 2" that conflicts with main in two tables: three cells (Ana's city
//   and email, order 2's quantity), with other cells of the same rows changed on one side only.
import type { Branch, CiRunTarget } from '../shared/wire';
import { recordCiOperation } from './ciOperations';
import type { HubServer } from './hubServer';
import { dbKey } from './store';

/** The seed's own helpers (seed.ts), passed in so this file adds data the same way. */
export interface SeedTools {
  hub: HubServer;
  api: <T>(user: string, method: string, path: string, body?: unknown) => Promise<T>;
  commit: (owner: string, name: string, user: string, branch: string, message: string, statements: string[]) => Promise<void>;
  branch: (user: string, owner: string, name: string, b: string, from: string) => Promise<unknown>;
  pull: (
    user: string,
    owner: string,
    name: string,
    title: string,
    description: string,
    from: [string, string, string],
    to: string,
  ) => Promise<{ pull_number: number }>;
}

export const CHECKS_DB = {
  owner: 'alice',
  name: 'orders',
  visibility: 'public' as const,
  description: 'Customer orders, with the data tests every change must pass.',
  default_branch: 'main',
  tables: ['customers', 'orders'],
};

const TESTS = [
  // name, group, query, assertion, comparator, value
  [
    'orders have customers',
    'integrity',
    'SELECT COUNT(*) FROM orders WHERE customer_id NOT IN (SELECT id FROM customers)',
    'expected_single_value',
    '==',
    '0',
  ],
  ['no negative quantities', 'integrity', 'SELECT * FROM orders WHERE quantity < 0', 'expected_rows', '==', '0'],
  ['every customer has an email', 'contacts', 'SELECT id, name FROM customers WHERE email IS NULL', 'expected_rows', '==', '0'],
  ['at least three customers', 'sizes', 'SELECT COUNT(*) FROM customers', 'expected_single_value', '>=', '3'],
  ['order total under the cap', 'sizes', 'SELECT SUM(quantity * unit_price) FROM orders', 'expected_single_value', '<=', '100'],
];

function testRows(): string {
  const lit = (s: string): string => `'${s.replace(/'/g, "''")}'`;
  return TESTS.map((t) => `(${t.map(lit).join(', ')})`).join(', ');
}

export async function seedChecks(t: SeedTools): Promise<void> {
  const { owner, name } = CHECKS_DB;
  await t.api('alice', 'POST', '/databases', { owner, name, description: CHECKS_DB.description, visibility: CHECKS_DB.visibility });
  await t.commit(owner, name, 'alice', 'main', 'Create customers and orders', [
    'CREATE TABLE customers (id int PRIMARY KEY, name varchar(100) NOT NULL, city varchar(100), email varchar(255))',
    'CREATE TABLE orders (id int PRIMARY KEY, customer_id int NOT NULL, quantity int NOT NULL, unit_price decimal(10,2), note text)',
    "INSERT INTO customers VALUES (1,'Ana','Lisbon','ana@example.com'),(2,'Rui','Porto',NULL),(3,'Marta','Faro','marta@example.com')",
    "INSERT INTO orders VALUES (1,1,2,9.50,NULL),(2,2,5,12.00,'gift wrap'),(3,3,1,40.00,NULL)",
  ]);
  await t.commit(owner, name, 'alice', 'main', 'Add the data tests', [`INSERT INTO dolt_tests VALUES ${testRows()}`]);
  await seedBreakingPull(t);
  await seedConflictingPull(t);
}

async function seedBreakingPull(t: SeedTools): Promise<void> {
  const { owner, name } = CHECKS_DB;
  await t.branch('alice', owner, name, 'bulk-orders', 'main');
  await t.commit(owner, name, 'bob', 'bulk-orders', 'Import the bulk orders', [
    "INSERT INTO orders VALUES (4,1,-3,9.50,'returned'),(5,3,2,40.00,NULL)",
    "UPDATE customers SET email = 'rui@example.com' WHERE id = 2",
  ]);
  await t.pull('bob', owner, name, 'Bulk orders', 'The January bulk import; includes one return.', [owner, name, 'bulk-orders'], 'main');
  const head = await branchHead(t, 'bulk-orders');
  const key = dbKey(owner, name);
  const run = (workflow: string): CiRunTarget => ({ branch: 'bulk-orders', commit_sha: head, workflow });
  recordCiOperation(t.hub.store, key, { ...run('lint schema'), status: 'succeeded', createdBy: 'bob' });
  recordCiOperation(t.hub.store, key, {
    ...run('nightly totals'),
    status: 'failed',
    createdBy: 'bob',
    failure: 'Totals for January differ from the ledger by 28.50.',
  });
}

async function seedConflictingPull(t: SeedTools): Promise<void> {
  const { owner, name } = CHECKS_DB;
  await t.branch('alice', owner, name, 'relocate-ana', 'main');
  await t.commit(owner, name, 'bob', 'relocate-ana', 'Ana moved to Braga; order 2 is for 7', [
    "UPDATE customers SET city = 'Braga', email = 'ana@braga.example' WHERE id = 1",
    "UPDATE orders SET quantity = 7, note = 'gift wrap, two boxes' WHERE id = 2",
    "INSERT INTO customers VALUES (4,'Paulo','Coimbra','paulo@example.com')",
  ]);
  await t.commit(owner, name, 'alice', 'main', 'Ana moved to Porto; order 2 is for 6', [
    "UPDATE customers SET city = 'Porto', name = 'Ana Sousa', email = 'ana@porto.example' WHERE id = 1",
    'UPDATE orders SET quantity = 6, unit_price = 11.50 WHERE id = 2',
  ]);
  await t.pull(
    'bob',
    owner,
    name,
    'Relocate Ana and fix order 2',
    'Conflicts with main in customers and orders.',
    [owner, name, 'relocate-ana'],
    'main',
  );
}

async function branchHead(t: SeedTools, branch: string): Promise<string> {
  const branches = await t.api<Branch[]>('alice', 'GET', `/databases/${CHECKS_DB.owner}/${CHECKS_DB.name}/branches`);
  const b = branches.find((x) => x.name === branch);
  if (!b) throw new Error(`seed: no branch ${branch}`);
  return b.head_commit_sha;
}
