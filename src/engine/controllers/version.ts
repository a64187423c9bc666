// The release the controllers present themselves as (the same build as the API server's /version).
export const SERVER_GIT_VERSION = 'v1.33.0';
export const SERVER_GIT_COMMIT = '60a317eadfcb839692a68eab88b2096f4d708f4f';
