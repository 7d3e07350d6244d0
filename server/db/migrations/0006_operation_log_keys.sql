ALTER TABLE "operation_logs" ADD COLUMN "params" jsonb DEFAULT '{}'::jsonb NOT NULL;
--> statement-breakpoint
-- Rows written until now hold English sentences (and alarms, inputs, phones as patterns):
-- each becomes its operation key and parameters, so it reads in the reader's language.
-- Function names were already stable keys and stay as they are.
UPDATE "operation_logs" AS l
SET "operation" = c.key, "params" = c.params
FROM (
  SELECT s.id,
    CASE
      WHEN s.fixed IS NOT NULL THEN s.fixed
      WHEN s.am IS NOT NULL AND s.am[1] IN ('temperatureHigh', 'temperatureLow', 'humidityHigh', 'humidityLow', 'co2High', 'nh3High', 'pressureHigh', 'pressureLow', 'sensorFault', 'sensorStuck', 'gatewayOffline', 'deviceError', 'controllerAlarm', 'diInput') THEN 'alarm'
      WHEN s.dm IS NOT NULL THEN 'alarmInput'
      WHEN s.fn LIKE 'alarmPhone.%' AND s.pm IS NOT NULL THEN 'alarmPhone'
      WHEN s.fn = 'alarm.limits' THEN 'alarmLimits'
      ELSE 'text'
    END AS key,
    CASE
      WHEN s.fixed IS NOT NULL THEN '{}'::jsonb
      WHEN s.am IS NOT NULL AND s.am[1] IN ('temperatureHigh', 'temperatureLow', 'humidityHigh', 'humidityLow', 'co2High', 'nh3High', 'pressureHigh', 'pressureLow', 'sensorFault', 'sensorStuck', 'gatewayOffline', 'deviceError', 'controllerAlarm', 'diInput')
        THEN jsonb_strip_nulls(jsonb_build_object('cause', s.am[1], 'metric', s.am[2], 'id', s.am[3]::bigint))
      WHEN s.dm IS NOT NULL THEN jsonb_build_object('code', s.dm[1], 'id', s.dm[2]::bigint)
      WHEN s.fn LIKE 'alarmPhone.%' AND s.pm IS NOT NULL
        THEN jsonb_build_object('phone', s.pm[1], 'id', s.pm[2]::bigint)
      WHEN s.fn = 'alarm.limits' THEN jsonb_build_object('value', s.op)
      ELSE jsonb_build_object('text', s.op)
    END AS params
  FROM (
    SELECT o.id, o.operation AS op, o.function AS fn, f.key AS fixed,
      regexp_match(o.operation, '^(\w+)(?: (\S+))? #(\d+)$') AS am,
      regexp_match(o.operation, '^DI (\S+) #(\d+)$') AS dm,
      regexp_match(o.operation, '^(.*) #(\d+)$') AS pm
    FROM "operation_logs" AS o
    LEFT JOIN (VALUES
    ('sign in', 'signIn'),
    ('change password', 'changePassword'),
    ('create user', 'createUser'),
    ('update user', 'updateUser'),
    ('delete user', 'deleteUser'),
    ('reset password', 'resetPassword'),
    ('assign houses', 'assignHouses'),
    ('create organisation', 'createOrganisation'),
    ('update organisation', 'updateOrganisation'),
    ('delete organisation', 'deleteOrganisation'),
    ('upload logo', 'uploadLogo'),
    ('create group', 'createGroup'),
    ('update group', 'updateGroup'),
    ('delete group', 'deleteGroup'),
    ('create company', 'createCompany'),
    ('update company', 'updateCompany'),
    ('delete company', 'deleteCompany'),
    ('create farm', 'createFarm'),
    ('update farm', 'updateFarm'),
    ('delete farm', 'deleteFarm'),
    ('create house', 'createHouse'),
    ('update house', 'updateHouse'),
    ('delete house', 'deleteHouse'),
    ('create gateway', 'createGateway'),
    ('update gateway', 'updateGateway'),
    ('delete gateway', 'deleteGateway'),
    ('rotate device token', 'rotateDeviceToken'),
    ('start flock', 'startFlock'),
    ('close flock', 'closeFlock'),
    ('create breed', 'createBreed'),
    ('update breed', 'updateBreed'),
    ('delete breed', 'deleteBreed'),
    ('copy breed', 'copyBreed'),
    ('save per-age targets', 'saveTargets'),
    ('save immune reminders', 'saveImmune'),
    ('create kiosk link', 'createKioskLink'),
    ('revoke kiosk link', 'revokeKioskLink')
    ) AS f(text, key) ON f.text = o.operation
  ) AS s
) AS c
WHERE c.id = l.id;
