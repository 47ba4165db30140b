{
  "targets": [
    {
      "target_name": "udp_fast",
      "sources": ["native/udp-fast.c", "native/rrl.c"],
      "cflags": ["-O2", "-Wall", "-Wno-unused-parameter"],
      "conditions": [["OS!='linux'", { "type": "none" }]]
    }
  ]
}
