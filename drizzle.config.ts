import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: [
    './server/db/schema.ts',
    './server/db/telemetrySchema.ts',
    './server/db/alarmSchema.ts',
    './server/db/wallSchema.ts',
    './server/db/productionSchema.ts',
    './server/db/notifySchema.ts',
    './server/db/envcontrolSchema.ts',
    './server/db/hardenSchema.ts',
    './server/db/devicesSchema.ts',
    './server/db/upgradeSchema.ts',
  ],
  out: './server/db/migrations',
});
