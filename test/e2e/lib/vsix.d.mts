// Types of vsix.mjs for the TypeScript tests that check the package (test/scripts/package.test.ts).
export declare const VSIX_BUDGET: { vsixBytes: number; unpackedBytes: number; fileBytes: number };
export declare function checkVsix(file: string): {
  files: string[];
  bytes: number;
  unpacked: number;
  entries: { name: string; size: number }[];
};
export declare function packagedFiles(file: string): { name: string; size: number }[];
