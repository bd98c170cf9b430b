import { strict as assert } from 'node:assert';
import { grouped } from '../../../src/renderer/gridOutput';

describe('grouped (row counts in the summary)', () => {
  it("writes whole numbers as toLocaleString('en-US') does", () => {
    for (const n of [0, 1, 12, 999, 1000, 12_345, 100_000, 999_999, 1_000_000, 1_234_567_890, Number.MAX_SAFE_INTEGER]) {
      assert.equal(grouped(n), n.toLocaleString('en-US'), String(n));
    }
  });
});
