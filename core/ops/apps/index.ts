import { connectApp } from './connectApp.ts';
import { createConnectCode } from './createConnectCode.ts';
import { disconnectApp } from './disconnectApp.ts';
import { listConnectedApps } from './listConnectedApps.ts';

/** Remote agents connected through OAuth: the grants people make on the consent page. */
export const appOps = [createConnectCode, connectApp, listConnectedApps, disconnectApp] as const;
