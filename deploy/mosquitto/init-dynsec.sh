#!/usr/bin/env bash
# Makes the dynamic security file with two accounts: the plugin's administrator (Roost manages
# gateways as this user: ROOST_DYNSEC_USER/ROOST_DYNSEC_PASSWORD) and Roost's own ingest user
# (MQTT_URL's user) with the role reading and writing roost/v1/#, shared subscriptions included.
# Usage: init-dynsec.sh FILE ADMIN_PASSWORD ROOST_PASSWORD [PORT]
# Run once; the first step writes FILE, the others talk to the running Mosquitto on PORT.
set -euo pipefail
file=$1 admin_password=$2 roost_password=$3 port=${4:-1883}
if [ ! -f "$file" ]; then
  mosquitto_ctrl dynsec init "$file" roost-admin "$admin_password"
  chown mosquitto: "$file" 2>/dev/null || true
  echo "Now start (or restart) Mosquitto, then run this again to add Roost's own user."
  exit 0
fi
ctrl() { mosquitto_ctrl -h 127.0.0.1 -p "$port" -u roost-admin -P "$admin_password" dynsec "$@"; }
ctrl createRole roost-server
ctrl addRoleACL roost-server publishClientSend 'roost/v1/#' allow
ctrl addRoleACL roost-server publishClientReceive 'roost/v1/#' allow
ctrl addRoleACL roost-server subscribePattern 'roost/v1/#' allow
ctrl addRoleACL roost-server subscribePattern '$share/+/roost/v1/#' allow
ctrl createClient roost -p "$roost_password"
ctrl setClientPassword roost "$roost_password"
ctrl addClientRole roost roost-server
