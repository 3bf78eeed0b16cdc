import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Environment } from '../config/environment';
import { UsersService } from './users.service';

/** Creates the first superadministrator from the environment; a no-op once the e-mail exists. */
@Injectable()
export class BootstrapAdmin implements OnApplicationBootstrap {
  private readonly logger = new Logger(BootstrapAdmin.name);

  constructor(
    private readonly users: UsersService,
    private readonly config: ConfigService<Environment, true>,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const email = this.config.get('BOOTSTRAP_ADMIN_EMAIL', { infer: true });
    const password = this.config.get('BOOTSTRAP_ADMIN_PASSWORD', { infer: true });
    if (!email || !password) return;
    if (await this.users.ensureSuperadmin(email, password)) {
      this.logger.log(`created the superadministrator ${email}`);
    }
  }
}
