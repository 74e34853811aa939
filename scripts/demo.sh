#!/usr/bin/env bash
# The main job, offline: one process saves memories, the next ones recall them.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
py="${PYTHON:-$here/.venv/bin/python}"
export REMEM_HOME="${REMEM_HOME:-$(mktemp -d)}"
run() { printf '\n$ remem %s\n' "$*"; "$py" -m remem --project demo "$@"; }

echo "remem demo: store in $REMEM_HOME (each command below is a new process)"
run save "项目使用 JDK 17 和 Maven"
run save --global --type preference "回答用中文，代码注释用英文"
run save --type decision "We deploy with GitHub Actions to a Fly.io app named myapp-prod"
run search "创建 Java 项目用什么 JDK"
run search "how do we deploy"
run save "项目使用 JDK 21" || echo "(exit $?: a conflict is refused until you choose)"
old=$("$py" -m remem --project demo search --json "JDK" |
  "$py" -c 'import json, sys; print(json.load(sys.stdin)[0]["entry"]["id"])')
run save --replace "$old" "项目使用 JDK 21"
run history "$old"
run context "帮我再创建一个 Java 项目"
run stats
