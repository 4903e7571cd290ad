import { importCandidates } from './importCandidates.ts';
import { readStatement } from './readStatement.ts';

/** Bank statements: reading one and importing the subscriptions found in it. */
export const statementOps = [readStatement, importCandidates] as const;
