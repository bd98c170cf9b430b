import { strict as assert } from 'node:assert';
import { databaseWebUrl, parseDatabaseInput, validateDatabaseName } from '../../../src/core/databaseInput';
import { normalizeSiteUrl, parseHostsSetting } from '../../../src/core/hostUrl';

describe('parseDatabaseInput', () => {
  it('reads owner/name, trimming spaces', () => {
    assert.deepEqual(parseDatabaseInput('  alice/inventory '), { owner: 'alice', name: 'inventory' });
  });

  it('reads a pasted web address with extra path, query and encoded segments', () => {
    assert.deepEqual(parseDatabaseInput('https://www.example.com/repositories/acme/ware_house/data/main?x=1#top'), {
      owner: 'acme',
      name: 'ware_house',
      siteUrl: 'https://www.example.com',
    });
    assert.deepEqual(parseDatabaseInput('http://127.0.0.1:4000/alice/prices'), {
      owner: 'alice',
      name: 'prices',
      siteUrl: 'http://127.0.0.1:4000',
    });
  });

  it('strips a configured host path prefix before reading owner and name', () => {
    const parsed = parseDatabaseInput('https://corp.example/dolt/repositories/team/db', ['https://corp.example/dolt/']);
    assert.deepEqual(parsed, { owner: 'team', name: 'db', siteUrl: 'https://corp.example/dolt' });
  });

  it('reads an API address of a database', () => {
    assert.deepEqual(parseDatabaseInput('https://h.example/api/v2/databases/o/n/branches'), {
      owner: 'o',
      name: 'n',
      siteUrl: 'https://h.example',
    });
  });

  it('refuses text that names no database, with a message saying what to type', () => {
    assert.throws(() => parseDatabaseInput(''), /owner\/name/);
    assert.throws(() => parseDatabaseInput('alice'), /not owner\/name/);
    assert.throws(() => parseDatabaseInput('a/b/c'), /not owner\/name/);
    assert.throws(() => parseDatabaseInput('alice/bad name'), /letters, digits/);
    assert.throws(() => parseDatabaseInput('https://h.example/repositories/alice'), /does not name a database/);
    assert.throws(() => parseDatabaseInput('-x/y'), /letters, digits/);
  });

  it('builds the web address with each segment escaped', () => {
    assert.equal(databaseWebUrl('https://h.example', 'a b', 'c/d'), 'https://h.example/repositories/a%20b/c%2Fd');
  });

  it('validates new database names like the API does', () => {
    assert.equal(validateDatabaseName('good_name-1'), undefined);
    assert.match(validateDatabaseName('') ?? '', /Enter a name/);
    assert.match(validateDatabaseName('bad-') ?? '', /not starting or ending/);
    assert.match(validateDatabaseName('has space') ?? '', /letters/);
  });
});

describe('hosts setting', () => {
  it('normalizes site URLs: no trailing slash, no /api/v2, no query', () => {
    assert.equal(normalizeSiteUrl('https://www.example.com/'), 'https://www.example.com');
    assert.equal(normalizeSiteUrl('https://www.example.com/api/v2/'), 'https://www.example.com');
    assert.equal(normalizeSiteUrl('http://h:8080/x/?q=1'), 'http://h:8080/x');
    assert.throws(() => normalizeSiteUrl('ftp://h'), /http/);
    assert.throws(() => normalizeSiteUrl('https://u:p@h'), /password/);
    assert.throws(() => normalizeSiteUrl('not a url'), /not a URL/);
  });

  it('keeps good entries, names bad ones and drops duplicates', () => {
    const r = parseHostsSetting([
      { name: 'Main', url: 'https://www.example.com/' },
      { url: 'http://127.0.0.1:9000' },
      { name: 'Dup', url: 'https://www.example.com' },
      { name: 'Bad' },
      'nope',
    ]);
    assert.deepEqual(r.hosts, [
      { name: 'Main', url: 'https://www.example.com' },
      { name: '127.0.0.1:9000', url: 'http://127.0.0.1:9000' },
    ]);
    assert.equal(r.problems.length, 3);
    assert.match(r.problems[0]!, /hosts\[2\] repeats/);
    assert.match(r.problems[1]!, /hosts\[3\] has no "url"/);
    assert.deepEqual(parseHostsSetting({}).hosts, []);
    assert.equal(parseHostsSetting(undefined).problems.length, 0);
  });
});
