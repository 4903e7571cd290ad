import { connectApp } from './connectApp.ts';
import { disconnectApp } from './disconnectApp.ts';
import { listConnectedApps } from './listConnectedApps.ts';

/** Remote agents connected through OAuth: the grants people make on the consent page. */
export const appOps = [connectApp, listConnectedApps, disconnectApp] as const;
