// The server a test or the CLI starts: the HTTP host (src/transport) given the control API
// (src/control) and, under `serve --workers N`, this worker's role (src/cluster). Assembling them
// here keeps the arrows pointing down: the host knows neither the control API nor the cluster.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { EdgeLink } from '../cluster/edge.js';
import { OwnerLink } from '../cluster/owner.js';
import { handleControl } from '../control/api.js';
import { HttpHost, type ServerOptions } from '../transport/http-host.js';

export type { ServerOptions };

export class UnderstudyServer extends HttpHost {
  constructor(options: ServerOptions = {}) {
    const worker = options.cluster;
    let owner: OwnerLink | undefined;
    let edge: EdgeLink | undefined;
    super(options, {
      control: (host: HttpHost, req: IncomingMessage, res: ServerResponse, path: string, query: string) => {
        if (owner?.isRecordsDelivery(req, path)) return owner.acceptRecords(req, res);
        const server = {
          registry: host.registry,
          replyLimits: host.replyLimits,
          providerUrl: host.providerUrl.bind(host),
          owner,
          metrics: host.metrics,
          journalBodies: options.journalBodies === true,
        };
        return handleControl(server, req, res, path, query);
      },
      cluster: worker
        ? (registry) =>
            worker.index === 0
              ? (owner = new OwnerLink(0, worker.workers, registry))
              : (edge = new EdgeLink(worker.index, worker.workers, registry, options.controlToken))
        : undefined,
    });
    if (edge) edge.metrics = this.metrics;
  }
}
