import { Controller } from 'svc';

export interface AdminSummary {
  greeting: string;
  clientIp: string;
}

export class DashboardController extends Controller {
  /** Admin landing data (bearer token, loopback only, rate limited) */
  dashboard(): AdminSummary {
    return { greeting: 'Welcome to the back office', clientIp: this.ctx.ip };
  }
}
