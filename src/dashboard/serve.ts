import { ListenError } from '../core/listen.js';
import { hostInUrl } from '../core/listen.js';
import { dashboardApp } from './app.js';
import { boundConnections } from './connection-bounds.js';
import type { DashboardDeps } from './deps.js';

export interface ServedDashboard {
  readonly url: string;
  /** Connections it keeps at once; past it new ones are closed at once. */
  readonly maxConnections: number;
  readonly openFiles: number | undefined;
  close(): Promise<void>;
}

/** The dashboard listening on DASHBOARD_HOST:DASHBOARD_PORT; a port it cannot have stops the start (exit 78). */
export async function serveDashboard(deps: DashboardDeps): Promise<ServedDashboard> {
  const app = await dashboardApp(deps);
  const { port, host } = deps.settings;
  const bounds = boundConnections(app.server, deps.settings.maxConnections, deps.logger);
  app.addHook('onClose', async () => bounds.close());
  try {
    await app.listen({ port, host });
  } catch (error) {
    await app.close();
    const code = (error as { code?: string }).code;
    throw new ListenError(
      `Could not serve the dashboard on ${host}:${port} (${code ?? (error as Error).message}): choose a free DASHBOARD_PORT, or stop what holds it.`,
      code,
    );
  }
  const address = app.server.address();
  const bound = typeof address === 'object' && address !== null ? address.port : port;
  return {
    url: `http://${hostInUrl(host)}:${bound}`,
    maxConnections: bounds.maxConnections,
    openFiles: bounds.openFiles,
    close: () => app.close(),
  };
}
