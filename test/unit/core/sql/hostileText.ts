// Shared by the SQL tests: text that has broken hand-built SQL somewhere.
/** Hostile text a user might type into a filter or a server might hold in a cell. */
export const HOSTILE_TEXT = [
  "it's",
  "''",
  'back\\slash',
  "a\\'; DROP TABLE t; --",
  '100%',
  'under_score',
  '!bang!',
  '`tick`',
  '"double"',
  'ünïcødé',
  '😀 emoji 𝄞',
  '日本語',
  'line\nbreak\r\nand\ttab',
  '',
  ' spaced ',
  '%_!\\%',
  'NULL',
  '/* not a comment */ -- nor this',
];
