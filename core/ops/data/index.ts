import { exportData } from './exportData.ts';
import { importData } from './importData.ts';

/** Export and import of a household's data. */
export const dataOps = [exportData, importData] as const;
