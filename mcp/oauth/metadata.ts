import { SCOPES } from '../../core/index.ts';
import { IDENTITY } from '../identity.ts';
import { resourceOf } from './base.ts';

/** The OAuth endpoints, relative to the base URL. */
export const OAUTH_PATHS = {
  authorize: '/oauth/authorize',
  token: '/oauth/token',
  register: '/oauth/register',
  revoke: '/oauth/revoke',
} as const;

/** What a token without a scope named asks for in the 401 challenge (RFC 6750 §3; never offline_access). */
export const CHALLENGE_SCOPE = 'read write';

/** RFC 9728 protected resource metadata for the MCP endpoint. */
export function protectedResourceMetadata(base: string): Record<string, unknown> {
  return {
    resource: resourceOf(base),
    authorization_servers: [base],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: IDENTITY.title,
    resource_documentation: `${base}/auth.md`,
  };
}

/** RFC 8414 authorization server metadata; the issuer is exactly `base`. */
export function authorizationServerMetadata(base: string): Record<string, unknown> {
  return {
    issuer: base,
    authorization_endpoint: `${base}${OAUTH_PATHS.authorize}`,
    token_endpoint: `${base}${OAUTH_PATHS.token}`,
    registration_endpoint: `${base}${OAUTH_PATHS.register}`,
    revocation_endpoint: `${base}${OAUTH_PATHS.revoke}`,
    scopes_supported: [...SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
    revocation_endpoint_auth_methods_supported: [
      'none',
      'client_secret_post',
      'client_secret_basic',
    ],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
    service_documentation: `${base}/auth.md`,
  };
}
