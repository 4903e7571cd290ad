// Core's public surface for the adapters (bot/, mcp/, miniapp/). Named exports only.
export type { Actor, Channel, Role, Scope } from './kernel/actor.ts';
export { memberActor, newcomerActor, scopeAllows, SCOPES } from './kernel/actor.ts';
export type { CoreOptions, InvokeOptions, InvokeResult } from './kernel/core.ts';
export { Core } from './kernel/core.ts';
export type { ErrorCode, InputIssue } from './errors/index.ts';
export { ERROR_CODES, isOpError, OpError, toOpError } from './errors/index.ts';
export type { ChangeEvent, CoreEvent, EventBus } from './kernel/events.ts';
export { InMemoryEventBus } from './kernel/events.ts';
export type { AnyOp, Effect, OpContext, OpSpec, Surface } from './kernel/op.ts';
export { defineOp, isWrite, offeredOn, SURFACES } from './kernel/op.ts';
export type { CatalogOp, OpName } from './ops/catalog.ts';
export { catalog } from './ops/catalog.ts';
export type { Database, Dialect } from './store/connection.ts';
export { migrate, openDatabase } from './store/connection.ts';
export type { Change, Row } from './store/tracked.ts';
export type { Locale, Text } from './i18n/index.ts';
export { isLocale, localeFrom, render, t } from './i18n/index.ts';
