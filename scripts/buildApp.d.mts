/** See buildApp.mjs. */
export declare const APP_ROOT: string;
export declare const APP_DIST: string;
export declare function appUpToDate(root?: string): boolean;
export declare function buildApp(options?: {
  root?: string;
  force?: boolean;
  logLevel?: 'info' | 'warn' | 'error' | 'silent';
}): Promise<'built' | 'up-to-date' | 'no-app'>;
