// Channels: how members are reached outside a conversation, the same on every surface.
export { startAgentNotices } from './notices.ts';
export { ChannelRegistry, DeliveryError, type Route } from './registry.ts';
export type { ChannelAdapter, Deliverer, Reach, Recipient } from './types.ts';
