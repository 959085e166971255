#!/usr/bin/env bash
# Packs the device build small: apps and the named gpu tests as tgz (argument: test names).
set -e
rm -rf .device-build /tmp/pk && mkdir -p /tmp/pk/app/gui /tmp/pk/tests .device-build
strip -o /tmp/pk/app/gui/stencilscope build/app/gui/stencilscope
strip -o /tmp/pk/app/stencilscope-cli build/app/stencilscope-cli
for t in "$@"; do strip -o /tmp/pk/tests/$t build/tests/$t; done
tar czf .device-build/apps.tgz -C /tmp/pk .
echo '*' > .device-build/.gitignore
du -sh .device-build
