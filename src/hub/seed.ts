// Sample data for demos and tests: users, an organization, public and private databases with
// real history, branches, tags, a release, open/closed/merged pulls with comments and a fork.
// Everything but table contents goes through the hub's own HTTP API, so seeding exercises it.
import { join } from 'node:path';
import type { Logger } from '../core/logger';
import type { OperationRef } from '../shared/wire';
import { HubServer } from './hubServer';
import { hashPassword, hashToken, newToken } from './credentials';
import { extensionClient } from './oauth';
import { writeFileAtomicSync } from './atomicFile';
import { SeedClient } from './seedClient';
import { CHECKS_DB, seedChecks } from './seedChecks';
import type { OrgRole } from './store';

export const SEED_FILE = 'seed.json';

/** Shape of `seed.json`, written into the data folder after seeding. */
export interface SeedManifest {
  version: 1;
  users: { username: string; email: string; password: string }[];
  orgs: { name: string; members: Record<string, OrgRole> }[];
  databases: {
    owner: string;
    name: string;
    visibility: 'public' | 'private';
    description: string;
    default_branch: string;
    tables: string[];
    parent?: string;
  }[];
  /** The database a demo should open first. */
  primary: { owner: string; name: string };
  oauth_client_id: string;
}

const USERS = [
  { username: 'alice', email: 'alice@example.com', display_name: 'Alice Liddell', password: 'alice-password' },
  { username: 'bob', email: 'bob@example.com', display_name: 'Bob Builder', password: 'bob-password' },
  { username: 'carol', email: 'carol@example.com', display_name: 'Carol Danvers', password: 'carol-password' },
];

const ORG = { name: 'acme', members: { alice: 'owner', bob: 'writer', carol: 'reader' } as Record<string, OrgRole> };

export function addUser(hub: { store: HubServer['store'] }, username: string, email: string, password?: string, displayName = ''): void {
  hub.store.mutateAccounts((s) => {
    if (s.users[username] || s.orgs[username]) throw new Error(`"${username}" is already a user or organization.`);
    s.users[username] = {
      username,
      email,
      display_name: displayName,
      created_at: new Date().toISOString(),
      ...(password ? { password_hash: hashPassword(password) } : {}),
    };
  });
}

export async function seed(dataDir: string, workerScript: string, logger: Logger, workerExecArgv?: string[]): Promise<SeedManifest> {
  const hub = new HubServer({
    dataDir,
    host: '127.0.0.1',
    port: 0,
    pageSize: 100,
    maxRows: 10000,
    uploadTtlSeconds: 600,
    logger,
    workerScript,
    workerExecArgv,
  });
  if (Object.keys(hub.store.state.databases).length > 0) {
    await hub.engine.close();
    throw new Error(`${dataDir} already holds databases; seed an empty folder.`);
  }
  await hub.start();
  const seedTokenHashes = new Set<string>();
  try {
    const s = new SeedClient(hub, USERS, seedAccounts(hub, seedTokenHashes));
    await seedPrices(s);
    await seedPricesPulls(s);
    await seedPricesReview(s);
    await seedPricesReviewPulls(s);
    await seedInventory(s);
    await seedPrivateAndOrg(s);
    await seedChecks({
      hub,
      api: (u, m, p, b) => s.api(u, m, p, b),
      commit: s.commit.bind(s),
      branch: s.branch.bind(s),
      pull: s.pull.bind(s),
    });
    const manifest = seedManifest();
    writeFileAtomicSync(join(dataDir, SEED_FILE), JSON.stringify(manifest, null, 2) + '\n');
    return manifest;
  } finally {
    // The seeding tokens were for this process only.
    hub.store.mutateAccounts((st) => {
      st.tokens = st.tokens.filter((t) => !seedTokenHashes.has(t.hash));
    });
    await hub.stop();
  }
}

/** The users (with a token each, for this run), the organization and the extension's OAuth client. */
function seedAccounts(hub: HubServer, seedTokenHashes: Set<string>): Record<string, string> {
  const tokens: Record<string, string> = {};
  hub.store.mutateAccounts((st) => {
    for (const u of USERS) {
      if (!st.users[u.username])
        st.users[u.username] = {
          username: u.username,
          email: u.email,
          display_name: u.display_name,
          password_hash: hashPassword(u.password),
          created_at: new Date().toISOString(),
        };
      const t = newToken('vdbp');
      tokens[u.username] = t;
      seedTokenHashes.add(hashToken(t));
      st.tokens.push({ hash: hashToken(t), username: u.username, kind: 'personal', created_at: new Date().toISOString() });
    }
    st.orgs[ORG.name] = { name: ORG.name, members: ORG.members, created_at: new Date().toISOString() };
    const client = extensionClient();
    st.oauth_clients[client.client_id] = client;
  });
  return tokens;
}

/** alice/prices, the primary demo database: its first commits, tags and a release. */
async function seedPrices(s: SeedClient): Promise<void> {
  // ---- alice/prices: the primary demo database
  await s.api('alice', 'POST', '/databases', {
    owner: 'alice',
    name: 'prices',
    description: 'Retail prices by store and product, with full history.',
    visibility: 'public',
  });
  await s.commit('alice', 'prices', 'alice', 'main', 'Create products and stores', [
    'CREATE TABLE products (id bigint PRIMARY KEY, name varchar(255) NOT NULL, category varchar(64), price decimal(10,2), updated_at datetime(6))',
    'CREATE TABLE stores (id int PRIMARY KEY, city varchar(100) NOT NULL, opened date, logo blob)',
    "INSERT INTO products VALUES (1,'Apple','fruit',0.50,'2026-01-05 09:00:00.000000'),(2,'Banana','fruit',0.25,'2026-01-05 09:00:00.000000'),(3,'Carrot','vegetable',0.30,NULL)",
    "INSERT INTO stores VALUES (1,'Lisbon','2020-03-01',x'89504e47'),(2,'Porto','2021-07-15',NULL)",
  ]);
  await s.commit('alice', 'prices', 'alice', 'main', 'Add dairy products', [
    "INSERT INTO products VALUES (4,'Milk','dairy',1.10,'2026-01-06 10:00:00.000000'),(5,'Cheese','dairy',4.75,'2026-01-06 10:00:00.000000')",
  ]);
  await s.api('alice', 'POST', '/databases/alice/prices/tags', { name: 'v1', from: { branch: 'main' } });
  await s.commit('alice', 'prices', 'alice', 'main', 'Fix the price of carrots', [
    "UPDATE products SET price = 0.35, updated_at = '2026-01-07 08:00:00.000000' WHERE id = 3",
  ]);
  const v2 = await s.api<{ commit_sha: string }>('alice', 'POST', '/databases/alice/prices/tags', {
    name: 'v2',
    from: { branch: 'main' },
    message: 'Second cut: dairy and fixed carrots',
  });
  await s.api('alice', 'POST', '/databases/alice/prices/releases', {
    tag: 'v2',
    title: 'Prices 2.0',
    commit_sha: v2.commit_sha,
    description: 'Adds **dairy** and fixes the carrot price.',
  });
}

/** alice/prices pulls #1 (open, mergeable), #2 (merged) and #3 (closed). */
async function seedPricesPulls(s: SeedClient): Promise<void> {
  // #1 open and mergeable: "Add the 2025 prices"
  await s.branch('alice', 'alice', 'prices', 'prices-2025', 'main');
  await s.commit('alice', 'prices', 'alice', 'prices-2025', 'Add the 2025 price list', [
    'CREATE TABLE prices_2025 (product_id bigint PRIMARY KEY, price decimal(10,2) NOT NULL)',
    'INSERT INTO prices_2025 VALUES (1,0.55),(2,0.27),(3,0.36),(4,1.15),(5,4.90)',
  ]);
  const p1 = await s.pull(
    'alice',
    'alice',
    'prices',
    'Add the 2025 prices',
    "New table `prices_2025` with next year's list.",
    ['alice', 'prices', 'prices-2025'],
    'main',
  );
  await s.comment('bob', 'alice', 'prices', p1.pull_number, 'Looks good to me. Are the dairy prices final?');
  await s.comment('alice', 'alice', 'prices', p1.pull_number, 'Yes, confirmed with the supplier.');

  // #2 merged
  await s.branch('alice', 'alice', 'prices', 'more-stores', 'main');
  await s.commit('alice', 'prices', 'alice', 'more-stores', 'Open a store in Faro', [
    "INSERT INTO stores VALUES (3,'Faro','2026-01-10',NULL)",
  ]);
  const p2 = await s.pull('alice', 'alice', 'prices', 'Open a store in Faro', '', ['alice', 'prices', 'more-stores'], 'main');
  await s.comment('alice', 'alice', 'prices', p2.pull_number, 'Merging now.');
  await s.waitOp('alice', await s.api<OperationRef>('alice', 'POST', `/databases/alice/prices/pulls/${p2.pull_number}/merge`, {}));

  // #3 closed
  await s.branch('alice', 'alice', 'prices', 'experiment', 'main');
  await s.commit('alice', 'prices', 'alice', 'experiment', 'Try a price in cents', ['UPDATE products SET price = price * 100']);
  const p3 = await s.pull(
    'alice',
    'alice',
    'prices',
    'Store prices in cents',
    'An experiment; probably not.',
    ['alice', 'prices', 'experiment'],
    'main',
  );
  await s.comment('bob', 'alice', 'prices', p3.pull_number, 'This would break every report.');
  await s.api('alice', 'PATCH', `/databases/alice/prices/pulls/${p3.pull_number}`, { state: 'closed' });
}

/** alice/prices suppliers: rows added, edited and deleted on main, and one schema change. */
async function seedPricesReview(s: SeedClient): Promise<void> {
  // A history worth reviewing (added after everything above, so earlier numbers stay): a new
  // table on main with rows added, edited and deleted and one schema change; #4 open, its
  // changes span two tables with every kind of row change; #5 open and in conflict with main.
  await s.commit('alice', 'prices', 'alice', 'main', 'Add the suppliers table', [
    'CREATE TABLE suppliers (id int PRIMARY KEY, name varchar(100) NOT NULL, country char(2), rating int)',
    "INSERT INTO suppliers VALUES (1,'Quinta do Vale','PT',4),(2,'Hortas do Sul','PT',3),(3,'Lacticinios Beira','PT',5),(4,'Frutas Norte','ES',2)",
  ]);
  await s.commit('alice', 'prices', 'bob', 'main', 'Review supplier ratings', [
    'UPDATE suppliers SET rating = 3 WHERE id = 3',
    'DELETE FROM suppliers WHERE id = 4',
    "INSERT INTO suppliers VALUES (5,'Moinho Azul','PT',4)",
  ]);
  await s.commit('alice', 'prices', 'alice', 'main', 'Record supplier contact emails', [
    'ALTER TABLE suppliers ADD COLUMN email varchar(255)',
    "UPDATE suppliers SET email = 'geral@quintadovale.example' WHERE id = 1",
    "UPDATE suppliers SET email = 'hortas@sul.example' WHERE id = 2",
  ]);
}

/** alice/prices #4 (open, every kind of row change over two tables) and #5 (open, in conflict with main). */
async function seedPricesReviewPulls(s: SeedClient): Promise<void> {
  await s.branch('alice', 'alice', 'prices', 'supplier-updates', 'main');
  await s.commit('alice', 'prices', 'bob', 'supplier-updates', 'Add a cheese maker and yogurt', [
    "INSERT INTO suppliers VALUES (6,'Serra Queijos','PT',4,'ola@serraqueijos.example')",
    "INSERT INTO products VALUES (6,'Yogurt','dairy',0.90,'2026-01-20 10:00:00.000000')",
  ]);
  await s.commit('alice', 'prices', 'bob', 'supplier-updates', 'Retire Moinho Azul and reprice bananas', [
    'DELETE FROM suppliers WHERE id = 5',
    "UPDATE products SET price = 0.29, updated_at = '2026-01-20 11:00:00.000000' WHERE id = 2",
  ]);
  await s.commit('alice', 'prices', 'bob', 'supplier-updates', 'Drop cheese from the catalogue; rate Hortas do Sul', [
    'DELETE FROM products WHERE id = 5',
    'UPDATE suppliers SET rating = 4 WHERE id = 2',
  ]);
  const pSuppliers = await s.pull(
    'bob',
    'alice',
    'prices',
    'Update suppliers and the catalogue',
    'Adds Serra Queijos and yogurt, retires Moinho Azul, drops cheese, reprices bananas.',
    ['alice', 'prices', 'supplier-updates'],
    'main',
  );
  await s.comment('alice', 'alice', 'prices', pSuppliers.pull_number, 'Why drop cheese?');
  await s.branch('alice', 'alice', 'prices', 'vale-rating', 'main');
  await s.commit('alice', 'prices', 'alice', 'vale-rating', 'Quinta do Vale earns a 5', ['UPDATE suppliers SET rating = 5 WHERE id = 1']);
  await s.pull(
    'alice',
    'alice',
    'prices',
    "Raise Quinta do Vale's rating",
    'Conflicts with the later review on main.',
    ['alice', 'prices', 'vale-rating'],
    'main',
  );
  await s.commit('alice', 'prices', 'bob', 'main', 'Quinta do Vale slips to 3', ['UPDATE suppliers SET rating = 3 WHERE id = 1']);
}

/** alice/inventory, its fork bob/inventory and a cross-fork pull. */
async function seedInventory(s: SeedClient): Promise<void> {
  // ---- alice/inventory with a fork bob/inventory and a cross-fork pull
  await s.api('alice', 'POST', '/databases', {
    owner: 'alice',
    name: 'inventory',
    description: 'Stock levels per warehouse.',
    visibility: 'public',
  });
  await s.commit('alice', 'inventory', 'alice', 'main', 'Create the stock table', [
    'CREATE TABLE stock (sku varchar(32) PRIMARY KEY, description text, quantity int NOT NULL DEFAULT 0)',
    "INSERT INTO stock VALUES ('A-100','Widgets',120),('A-200','Gadgets',35),('B-300','Sprokets',0)",
  ]);
  await s.commit('alice', 'inventory', 'alice', 'main', 'Restock gadgets', ["UPDATE stock SET quantity = 80 WHERE sku = 'A-200'"]);
  await s.waitOp('bob', await s.api<OperationRef>('bob', 'POST', '/databases/alice/inventory/forks', { owner: 'bob' }));
  await s.branch('bob', 'bob', 'inventory', 'fix-typo', 'main');
  await s.commit('bob', 'inventory', 'bob', 'fix-typo', 'Fix the spelling of sprockets', [
    "UPDATE stock SET description = 'Sprockets' WHERE sku = 'B-300'",
  ]);
  const p4 = await s.pull(
    'bob',
    'alice',
    'inventory',
    'Fix a typo in B-300',
    'Sprokets → Sprockets.',
    ['bob', 'inventory', 'fix-typo'],
    'main',
  );
  await s.comment('alice', 'alice', 'inventory', p4.pull_number, 'Thanks, Bob!');
}

/** alice/notes (private), acme/warehouse and acme/payroll (private). */
async function seedPrivateAndOrg(s: SeedClient): Promise<void> {
  // ---- private and organization databases
  await s.api('alice', 'POST', '/databases', { owner: 'alice', name: 'notes', description: 'Private notes.', visibility: 'private' });
  await s.commit('alice', 'notes', 'alice', 'main', 'First notes', [
    'CREATE TABLE notes (id int PRIMARY KEY, body text NOT NULL, created_at datetime)',
    "INSERT INTO notes VALUES (1,'Call the supplier','2026-01-05 12:00:00'),(2,'Check the Porto store','2026-01-06 09:30:00')",
  ]);
  await s.commit('alice', 'notes', 'alice', 'main', 'Another note', ["INSERT INTO notes VALUES (3,'Plan Q2',NULL)"]);
  await s.api('bob', 'POST', '/databases', { owner: 'acme', name: 'warehouse', description: 'ACME warehouses.', visibility: 'public' });
  await s.commit('acme', 'warehouse', 'bob', 'main', 'Create warehouses', [
    'CREATE TABLE warehouses (id int PRIMARY KEY, city varchar(100) NOT NULL, capacity int)',
    "INSERT INTO warehouses VALUES (1,'Lisbon',1000),(2,'Madrid',2500)",
  ]);
  await s.commit('acme', 'warehouse', 'alice', 'main', 'Add Paris', ["INSERT INTO warehouses VALUES (3,'Paris',1800)"]);
  await s.api('alice', 'POST', '/databases', {
    owner: 'acme',
    name: 'payroll',
    description: 'Salaries (private to ACME).',
    visibility: 'private',
  });
  await s.commit('acme', 'payroll', 'alice', 'main', 'Create payroll', [
    'CREATE TABLE salaries (employee varchar(64) PRIMARY KEY, amount decimal(12,2) NOT NULL)',
    "INSERT INTO salaries VALUES ('alice',5000.00),('bob',4200.00)",
  ]);
}

/** What seed.json says was seeded. */
function seedManifest(): SeedManifest {
  return {
    version: 1,
    users: USERS.map(({ username, email, password }) => ({ username, email, password })),
    orgs: [{ name: ORG.name, members: ORG.members }],
    databases: [
      {
        owner: 'alice',
        name: 'prices',
        visibility: 'public',
        description: 'Retail prices by store and product, with full history.',
        default_branch: 'main',
        tables: ['products', 'stores', 'suppliers'],
      },
      {
        owner: 'alice',
        name: 'inventory',
        visibility: 'public',
        description: 'Stock levels per warehouse.',
        default_branch: 'main',
        tables: ['stock'],
      },
      {
        owner: 'bob',
        name: 'inventory',
        visibility: 'public',
        description: 'Stock levels per warehouse.',
        default_branch: 'main',
        tables: ['stock'],
        parent: 'alice/inventory',
      },
      { owner: 'alice', name: 'notes', visibility: 'private', description: 'Private notes.', default_branch: 'main', tables: ['notes'] },
      {
        owner: 'acme',
        name: 'warehouse',
        visibility: 'public',
        description: 'ACME warehouses.',
        default_branch: 'main',
        tables: ['warehouses'],
      },
      {
        owner: 'acme',
        name: 'payroll',
        visibility: 'private',
        description: 'Salaries (private to ACME).',
        default_branch: 'main',
        tables: ['salaries'],
      },
      CHECKS_DB,
    ],
    primary: { owner: 'alice', name: 'prices' },
    oauth_client_id: extensionClient().client_id,
  };
}
