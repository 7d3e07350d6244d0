ALTER TABLE "telemetry" DROP CONSTRAINT "telemetry_gateway_id_gateways_id_fk";
