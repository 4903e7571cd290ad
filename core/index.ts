// Core's public surface for the adapters (bot/, mcp/): they import core only from here and from
// core/chat/index.ts (ESLint's no-restricted-imports keeps it so). Named exports only.

// The kernel: invoke, actors, surface policy, events.
export type { Actor, Channel, Role, Scope } from './kernel/actor.ts';
export { memberActor, newcomerActor, scopeAllows, SCOPES } from './kernel/actor.ts';
export type { CoreOptions, InvokeOptions, InvokeResult } from './kernel/core.ts';
export type { OpObservation, OpObserver } from './kernel/observe.ts';
// Spans only once tracing is on (the OpenTelemetry API is loaded then, not at start).
export { enableTracing } from './kernel/tracing.ts';
export { Core } from './kernel/core.ts';
// One request's freshness check shared by its cached reads (the web API's hot path).
export { type Freshness, newFreshness } from './kernel/readCache.ts';
export type { ChangeEvent, CoreEvent, EventBus } from './kernel/events.ts';
export { InMemoryEventBus } from './kernel/events.ts';
export { eventVisibleTo } from './kernel/eventPrivacy.ts';
export type { PostgresEventBusOptions } from './kernel/pgEventBus.ts';
export { PostgresEventBus } from './kernel/pgEventBus.ts';
export type { SqliteEventBusOptions } from './kernel/sqliteEventBus.ts';
export { SqliteEventBus } from './kernel/sqliteEventBus.ts';
export type { AnyOp, Effect, OpContext, OpSpec, Surface } from './kernel/op.ts';
export { defineOp, isWrite, movesMoney, offeredOn, SURFACES } from './kernel/op.ts';
export { missingScope, offers, opsFor, strictInputOf, surfaceOps } from './kernel/surface.ts';
export { parseInput } from './kernel/validation.ts';
export { jsonTextTooDeep, jsonTooDeep, tooDeep } from './kernel/jsonDepth.ts';

// Errors: the one error type and its code table.
export type { ErrorCode, InputIssue } from './errors/index.ts';
export { ERROR_CODES, isOpError, OpError, toOpError } from './errors/index.ts';

// The catalog.
export type { CatalogOp, OpName } from './ops/catalog.ts';
export { catalog } from './ops/catalog.ts';

// The store: opening and migrating the database, what a change records, store failures.
export type { Database, Dialect } from './store/connection.ts';
export { migrate, openDatabase } from './store/connection.ts';
export type { Change, Row } from './store/tracked.ts';
export { storeFailure } from './store/failures.ts';
export type { OperationsSnapshot } from './store/repos/operations.ts';
export { operationsSnapshot } from './store/repos/operations.ts';
export type { SqliteFileKind } from './store/sqliteFiles.ts';
export { backupSqlite, inspectSqliteFile, sqliteInUse } from './store/sqliteFiles.ts';
export type { JobSchedule } from './store/jobs.ts';
export { runClaimedJob } from './store/jobs.ts';
export { accountsInHousehold } from './store/repos/identities.ts';
export type { Upload } from './store/repos/uploads.ts';
export { loadUpload, saveUpload } from './store/repos/uploads.ts';

// Texts in the reader's language, and the domain helpers adapters format with.
export type { Locale, Text } from './i18n/index.ts';
export { isLocale, localeFrom, render, t } from './i18n/index.ts';
export { addDays, addMonths, isValidDate, localDate } from './domain/dates.ts';
export { findTimeZone } from './domain/dates.ts';
export { formatAmount } from './domain/money.ts';
export { matchesText, searchKey } from './domain/text.ts';

// Services the primary process starts: pending changes, channels, reminders, the assistant,
// agent tokens, exchange rates.
export type { PendingChange, PendingChanges } from './pending/index.ts';
export { pendingChanges } from './pending/index.ts';
export type { ChannelAdapter, Deliverer } from './channels/index.ts';
export { ChannelRegistry, startAgentNotices } from './channels/index.ts';
export {
  claimReminder,
  findDueReminders,
  markFailed,
  markSent,
  purgeReminderLog,
} from './reminders/index.ts';
export { createAssistant, overridesFromEnv } from './assistant/index.ts';
export { authenticateToken, purgeExpiredCredentials } from './auth/index.ts';
// Web access (the Mini App): one-time codes, web sessions, calendar feed tokens.
export type {
  CodePurpose,
  RedeemedCode,
  RedeemRefusal,
  RedeemResult,
  SessionCheck,
  StartedSession,
} from './auth/index.ts';
export {
  authenticateSession,
  calendarFeedOwner,
  CODE_PURPOSES,
  redeemCode,
  SESSION_TTL_MS,
  SIGN_IN_CODE_LENGTH,
  startWebSession,
} from './auth/index.ts';
// Exhale's OAuth 2.1 authorization server (storage and token logic; endpoints in mcp/oauth/).
export type {
  DocumentFetchOptions,
  OAuthClient,
  OAuthErrorCode,
  TokenSet,
} from './auth/oauth/index.ts';
export {
  authenticateAccessToken,
  authenticateClient,
  cappedScope,
  clientLogo,
  DEFAULT_SCOPE,
  documentClient,
  exchangeCode,
  highestScope,
  isDocumentClientId,
  isOAuthError,
  issueAuthorizationCode,
  markConnected,
  matchRedirectUri,
  OAuthError,
  purgeOAuth,
  redeemConnectCode,
  redirectTarget,
  refreshTokens,
  refundConnectAttempt,
  reserveConnectAttempt,
  reserveRegistration,
  registerClient,
  revokeToken,
  scopesUpTo,
  storedClient,
} from './auth/oauth/index.ts';
export type { RegistrationLimits } from './auth/oauth/index.ts';
export { refreshEcbRates } from './fx/refresh.ts';
// Statement pictures: the OCR worker is ended at shutdown (stopOcr), and a chat shows OCR's
// progress by wrapping its read_statement call (withReadProgress).
export { stopOcr } from './imports/statements/ocr/worker.ts';
export { type ReadStep, withReadProgress } from './imports/statements/progress.ts';
