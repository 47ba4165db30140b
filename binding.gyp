{
  "targets": [
    {
      "target_name": "udp_fast",
      "sources": ["native/udp-fast.c", "native/udp-receive.c", "native/udp-calls.c", "native/rrl.c", "native/udp-socket.c"],
      "cflags": ["-O2", "-Wall", "-Wno-unused-parameter"],
      "conditions": [["OS!='linux'", { "type": "none" }]]
    },
    {
      "target_name": "scan_fast",
      "sources": ["native/scan.c", "native/scan-raw.c"],
      "cflags": ["-O2", "-Wall", "-Wno-unused-parameter"],
      "conditions": [["OS!='linux'", { "type": "none" }]]
    }
  ]
}
