import type { ServiceClient } from '../api/index.js';
import type { Logger } from '../core/log.js';

/**
 * One cheap call at start, logged: whether the base URL and credentials work. The bot keeps
 * running whatever it says (members get the usual messages); the line tells the operator which
 * setting to look at.
 */
export async function checkService(api: ServiceClient, logger: Logger): Promise<void> {
  const check = await api.checkConnection();
  switch (check.outcome) {
    case 'ok':
      logger.info({ check: check.outcome }, 'service check: ok');
      return;
    case 'credentials_refused':
      logger.warn(
        {
          check: check.outcome,
          status: check.status,
          headersSent: check.headers,
          settings: ['SERVICE_API_KEY', 'SERVICE_APP_ID', 'SERVICE_HEADER_PREFIX (the header names)'],
        },
        'service check: credentials refused',
      );
      return;
    case 'not_found':
      logger.warn(
        { check: check.outcome, status: check.status, setting: 'SERVICE_BASE_URL' },
        'service check: not found; the base URL is wrong',
      );
      return;
    case 'unexpected':
      logger.warn({ check: check.outcome, status: check.status }, 'service check: unexpected answer');
      return;
    case 'unreachable':
      logger.warn({ check: check.outcome, detail: check.detail }, 'service check: service unreachable');
  }
}
