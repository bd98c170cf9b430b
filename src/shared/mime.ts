// The notebook output MIME type shared by the controller (host) and the grid renderer.
export const QUERY_RESULT_MIME = 'application/vnd.versioned-db.query-result+json' as const;
