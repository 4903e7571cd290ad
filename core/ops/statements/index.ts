import { importCandidates } from './importCandidates.ts';
import { readStatement } from './readStatement.ts';
import { reconcileStatement } from './reconcileStatement.ts';

/** Bank statements: reading one, importing the subscriptions found in it, reconciling it with the charges. */
export const statementOps = [readStatement, importCandidates, reconcileStatement] as const;
