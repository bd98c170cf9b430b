// GET /user: who the token belongs to.
import type { User } from '../../shared/wire';
import { sendData } from '../http';
import type { Ctx } from '../http';
import { route } from '../router';
import type { Route } from '../router';
import type { EndpointHost } from '../hubCommon';

export class UserEndpoints {
  constructor(private readonly hub: EndpointHost) {}

  routes(): Route[] {
    return [route('/user', { GET: (c) => this.getUser(c) })];
  }

  private async getUser(ctx: Ctx): Promise<void> {
    const c = this.hub.requireCaller(ctx);
    const u = c.user;
    const user: User = {
      username: u.username,
      display_name: u.display_name,
      bio: '',
      location: '',
      website_url: '',
      profile_pic_url: '',
      email_addresses: [{ address: u.email, is_primary: true, is_verified: true }],
    };
    sendData(ctx, 200, user);
  }
}
