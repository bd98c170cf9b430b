import assert from 'node:assert/strict';

export const name = "the view shows the hub's database and, expanded, its branches, tags, releases and open pull requests";
/** The window opens signed in to Test Hub as alice, with alice/prices in the view (see README, "Where a scenario starts"). */
export const given = { signedIn: 'alice', databases: ['alice/prices'] };

/**
 * Everything the server lists must be in the tree: compared against the hub's own answers, not
 * against remembered seed data.
 * @param {import('../lib/context.mjs').ScenarioContext} ctx
 */
export async function run(ctx) {
  const api = async (path) => {
    const r = await ctx.hub.api(path);
    assert.equal(r.status, 200, `GET ${path}`);
    return r.body.data;
  };
  const [branches, tags, releases, pulls] = await Promise.all([
    api('/databases/alice/prices/branches'),
    api('/databases/alice/prices/tags'),
    api('/databases/alice/prices/releases'),
    api('/databases/alice/prices/pulls'),
  ]);
  assert.ok(branches.length && tags.length && releases.length && pulls.length, 'the seeded database has every kind of child');

  const open = (label) => ctx.expand(label);
  await open('alice/prices');
  await open('Branches');
  for (const b of branches) await ctx.treeItem(b.name);

  await open('Tags');
  for (const t of tags) await ctx.treeItem(t.name);

  await open('Releases');
  for (const r of releases) await ctx.treeItem(r.title || r.tag);

  await open('Pull Requests');
  const openPulls = pulls.filter((p) => p.state === 'open');
  assert.ok(openPulls.length > 0, 'the seed has an open pull request');
  for (const p of openPulls) await ctx.treeItem(`#${p.pull_number} ${p.title}`);
  // The default filter shows open pulls only: a merged or closed one is not listed.
  for (const p of pulls.filter((x) => x.state !== 'open')) {
    assert.equal(
      await ctx.page.locator('.part.sidebar .monaco-list-row', { hasText: `#${p.pull_number} ${p.title}` }).count(),
      0,
      `#${p.pull_number} is ${p.state} and should be filtered out`,
    );
  }
  await ctx.readmeScreenshot('databases-tree');
}
