// Types of scripts/serverBuild.mjs (plain JavaScript: it runs before tsx), for the bench and tests.
export declare const ROOT: string;
export declare const SOURCE_ROOTS: readonly string[];
/** What `exhale` runs of a build, inside dist/ (the bundle of bot/cli.js). */
export declare const BUILD_ENTRY: string;
export declare function sourceStamp(root?: string): Record<string, string>;
export declare function buildIsFresh(root?: string): boolean;
export declare function buildExists(root?: string): boolean;
export declare function buildServer(root?: string): void;
