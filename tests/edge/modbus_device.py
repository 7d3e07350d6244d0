"""A Modbus device for Roost Edge's tests, served by pymodbus (Debian's python3-pymodbus 3.x).

Serves one datastore per unit id over TCP or RTU (a serial line, e.g. one end of a socat
pseudo-terminal pair), with values from a JSON file, and refuses writes outside a register's
limits with exception 3 (illegal data value), as a controller refuses an out-of-range set-point.

  python3 modbus_device.py --tcp 41020 --units 1 --data values.json --limit 100:0:50
  python3 modbus_device.py --rtu /dev/pts/7 --units 1,2 --data values.json
"""
import argparse
import asyncio
import json
import sys

from pymodbus.datastore import ModbusSequentialDataBlock, ModbusSlaveContext, ModbusServerContext
from pymodbus.pdu import ModbusExceptions
from pymodbus.register_write_message import WriteMultipleRegistersRequest, WriteSingleRegisterRequest
from pymodbus.server import StartAsyncSerialServer, StartAsyncTcpServer
from pymodbus.transaction import ModbusRtuFramer

SIZE = 2000


class LimitedContext(ModbusSlaveContext):
    """A unit whose holding registers may carry limits (raw values) a write must respect."""

    def __init__(self, limits, **kwargs):
        super().__init__(**kwargs)
        self.limits = limits

    def refuses(self, address, values):
        for i, value in enumerate(values):
            limit = self.limits.get(address + i)
            if limit is not None:
                signed = value - 0x10000 if value >= 0x8000 else value
                if not limit[0] <= signed <= limit[1]:
                    return True
        return False


def guarded(original, values_of):
    def execute(self, context):
        if isinstance(context, LimitedContext) and context.refuses(self.address, values_of(self)):
            return self.doException(ModbusExceptions.IllegalValue)
        return original(self, context)

    return execute


WriteSingleRegisterRequest.execute = guarded(WriteSingleRegisterRequest.execute, lambda r: [r.value])
WriteMultipleRegistersRequest.execute = guarded(WriteMultipleRegistersRequest.execute, lambda r: r.values)


def block(values):
    data = [0] * SIZE
    for address, value in values.items():
        data[int(address)] = int(value) & 0xFFFF
    return ModbusSequentialDataBlock(0, data)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tcp", type=int)
    parser.add_argument("--rtu")
    parser.add_argument("--units", default="1")
    parser.add_argument("--data")
    parser.add_argument("--limit", action="append", default=[])
    args = parser.parse_args()
    data = {}
    if args.data:
        with open(args.data, encoding="utf8") as f:
            data = json.load(f)
    limits = {}
    for spec in args.limit:
        address, low, high = (int(x) for x in spec.split(":"))
        limits[address] = (low, high)
    units = {}
    for unit in (int(u) for u in args.units.split(",")):
        units[unit] = LimitedContext(
            limits,
            hr=block(data.get("holding", {})),
            ir=block(data.get("input", {})),
            co=block(data.get("coil", {})),
            di=block(data.get("discrete", {})),
            zero_mode=True,
        )
    context = ModbusServerContext(slaves=units, single=False)
    print("serving", flush=True)
    if args.tcp:
        # A device restarted on its port must bind while its old connections are in TIME_WAIT.
        asyncio.run(
            StartAsyncTcpServer(
                context=context, address=("127.0.0.1", args.tcp), allow_reuse_address=True
            )
        )
    elif args.rtu:
        asyncio.run(
            StartAsyncSerialServer(
                context=context, framer=ModbusRtuFramer, port=args.rtu, baudrate=9600, timeout=0.05
            )
        )
    else:
        sys.exit("--tcp PORT or --rtu DEVICE")


if __name__ == "__main__":
    main()
