"""Which shell commands bring outside content into a session (SPEC SE2), for the guard.

`network_command(command)` names what fetched: a network program (curl, wget, ssh, nc,
dig ...); a cloud, cluster or forge client (gh, aws, gcloud, az, kubectl, helm ...); a
database client (psql, mysql, redis-cli ...: their rows are written by other people); a
fetching subcommand (git clone/pull/fetch, docker pull/run/build, npm view, pip download
...); a package install (install scripts print what their publisher chose: pass
`package_installs=False` to let them through); an interpreter running network code
(`python -c "import requests..."`, `node -e "fetch(...)"`) or a script named for fetching
(`python3 fetch.py`, `./download_data.sh`); or "url" for any command naming a remote
address (http, s3, ssh, postgres ... URLs, `git@host:repo`) that is not this machine.
Commands inside `bash -c "..."`, `$(...)`, pipes and `&&` chains are all looked at.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable

__all__ = ["network_command"]

_NETWORK_PROGRAMS = frozenset(
    """curl wget http https xh httpie aria2c lynx w3m links elinks ftp sftp tftp lftp telnet
    nc ncat netcat socat ssh scp mosh invoke-webrequest iwr invoke-restmethod irm
    dig nslookup host whois drill nmap openssl grpcurl websocat wscat mosquitto_sub kcat
    kafkacat smbclient ldapsearch rclone s3cmd azcopy gsutil mc yt-dlp youtube-dl gallery-dl
    gh hub glab tea aws gcloud bq az doctl heroku vercel netlify flyctl fly wrangler firebase
    supabase railway kubectl oc helm eksctl k9s stern terraform tofu pulumi ansible
    ansible-playbook vagrant skopeo crane oras huggingface-cli hf kaggle ollama
    psql mysql mariadb mongo mongosh redis-cli sqlcmd clickhouse-client cqlsh influx
    snowsql""".split()
)
_WRAPPERS = frozenset(
    "sudo doas env time nohup exec command builtin nice xargs stdbuf watch caffeinate".split()
)
_FETCHING_SUBCOMMANDS = {
    "git": {"clone", "pull", "fetch", "ls-remote", "submodule", "remote", "archive"},
    "svn": {"checkout", "co", "update", "up", "export", "cat", "log", "list", "ls"},
    "hg": {"clone", "pull", "incoming", "in"},
    **dict.fromkeys(
        ("docker", "podman", "nerdctl", "buildah"),
        {"pull", "run", "build", "login", "search", "compose", "create", "buildx", "manifest"},
    ),
    "docker-compose": {"pull", "up", "run", "build", "create"},
    **dict.fromkeys(
        ("npm", "pnpm", "yarn", "bun"),
        {"view", "info", "show", "search", "outdated", "audit", "pack", "create", "dlx"},
    ),
    **dict.fromkeys(("pip", "pip3"), {"download", "index", "search"}),
    "cargo": {"search", "fetch", "install", "update", "vendor"},
    "go": {"get", "install", "mod"},
    "brew": {"install", "fetch", "update", "upgrade", "search", "tap", "info"},
    "gem": {"fetch", "search", "install", "query"},
    "conda": {"search", "install", "create", "update"},
    "deno": {"install"},
}
_INSTALLERS = {
    name: {"install", "add", "i", "get", "sync", "upgrade", "update", "dlx", "x"}
    for name in """pip pip3 pipx uv poetry pdm conda mamba npm pnpm yarn bun cargo go gem
    composer apt apt-get brew dnf yum apk""".split()
}
_INTERPRETERS = frozenset(
    """python python2 python3 pypy pypy3 node deno bun ruby perl php lua Rscript
    sh bash zsh dash fish pwsh powershell""".split()
)
# Network code handed to an interpreter on the command line, or in a script's name.
_NETWORK_CODE = re.compile(
    r"(?i)\b(?:requests|urllib\d?|httpx|aiohttp|http\.client|urlopen|socket|websocket"
    r"|paramiko|ftplib|smtplib|boto3|pycurl|fetch|axios|XMLHttpRequest|net/http|Net::HTTP"
    r"|open-uri|LWP|HTTP::Tiny|IO::Socket|curl_exec|file_get_contents|Invoke-WebRequest"
    r"|WebClient|got|node-fetch|undici)\b"
)
_FETCHING_NAME = re.compile(
    r"(?i)(?:^|[/_.-])(?:fetch\w*|download\w*|scrap\w*|crawl\w*|spider|wget|curl|http\w*"
    r"|web\w*|api|apis|pull|sync|mirror|harvest|ingest|import_url|get_url|get_page)(?:[_.-]|$)"
)
_VALUE_OPTIONS = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "-R"})
_REMOTE_ARG = re.compile(r"^(?:rsync://|[^/\s]+::|[^/\s]*[^/\s:\\]:(?!\\))")
_LOCAL_HOST = r"(?:localhost|127\.[0-9.]+|0\.0\.0\.0|\[::1\]|::1)(?![\w.-])"
_URL = re.compile(  # any scheme but file://, or scp's user@host:path; not this machine
    r"(?i)(?<![\w.+-])(?!file:)[a-z][a-z0-9+.-]{1,15}://(?:[^\s/@]*@)?(?!" + _LOCAL_HOST + r")"
    r"[\w\[]|(?<![\w.])[\w.-]+@(?!" + _LOCAL_HOST + r")[\w-]+(?:\.[\w-]+)+:[\w~./-]"
)
_LOCAL = re.compile(r"(?i)^(?:[a-z][a-z0-9+.-]*://)?(?:[^\s/@]*@)?" + _LOCAL_HOST)
_SEPARATORS = re.compile(r"[;&|()\n`]+")


def _words(command: str) -> list[str]:
    spaced = _SEPARATORS.sub(" ; ", command.replace("$(", " ; "))
    try:
        lexer = shlex.shlex(spaced, posix=True, punctuation_chars=";")
        lexer.whitespace_split = True
        return list(lexer)
    except ValueError:  # unbalanced quotes: fall back to plain words
        return spaced.split()


def _commands(words: list[str]) -> Iterable[list[str]]:
    current: list[str] = []
    for word in [*words, ";"]:
        if word and set(word) <= {";"}:
            if current:
                yield current
            current = []
        else:
            current.append(word)


def _program(argv: list[str]) -> list[str]:
    """argv without leading VAR=value assignments and wrappers (sudo, env, xargs ...)."""
    i = 0
    while i < len(argv) and (re.match(r"^\w+=", argv[i]) or argv[i] in _WRAPPERS):
        i += 1
        if argv[i - 1] in {"nice", "xargs", "env", "sudo", "watch"}:  # their own -options
            while i < len(argv) and argv[i].startswith("-"):
                i += 1
    if i < len(argv) and argv[i] == "timeout":
        i += 2
    return argv[i:]


def _subcommand(args: list[str]) -> str:
    """The first positional argument, skipping options and the values of -C / -c ..."""
    i = 0
    while i < len(args) and args[i].startswith("-"):
        i += 2 if args[i] in _VALUE_OPTIONS else 1
    return args[i] if i < len(args) else ""


def _only_local(args: list[str]) -> bool:
    """Every address among `args` is this machine (curl http://localhost:8000)."""
    targets = [a for a in args if "://" in a or _LOCAL.match(a)]
    return bool(targets) and all(_LOCAL.match(a) for a in targets)


def _argv_network(argv: list[str], installs: bool) -> str | None:
    argv = _program(argv)
    if not argv:
        return None
    prog, args = argv[0].rsplit("/", 1)[-1].lower(), argv[1:]
    if prog in {"sh", "bash", "zsh", "dash", "fish"} and "-c" in args[:-1]:
        return network_command(args[args.index("-c") + 1], package_installs=installs)
    if prog == "eval":
        return network_command(" ".join(args), package_installs=installs)
    if prog.startswith("python") and args[:2] == ["-m", "pip"]:
        prog, args = "pip", args[2:]
    if prog == "uv" and _subcommand(args) == "pip":
        args = args[args.index("pip") + 1 :]
    if prog in _NETWORK_PROGRAMS:
        return None if _only_local(args) else prog
    if prog == "rsync" and any(_REMOTE_ARG.match(a) for a in args if not a.startswith("-")):
        return "rsync"
    sub = _subcommand(args)
    if sub in _FETCHING_SUBCOMMANDS.get(prog, ()):
        return f"{prog} {sub}"
    if installs and prog in {"npx", "pnpx", "bunx", "uvx"}:
        return prog
    if installs and sub in _INSTALLERS.get(prog, ()):
        return f"{prog} {sub}"
    return None


def _argv_fetching_code(argv: list[str]) -> str | None:
    """An interpreter given network code, or a script named for fetching (weaker signs,
    looked at only when nothing stronger was found)."""
    argv = _program(argv)
    if not argv:
        return None
    prog, args = argv[0].rsplit("/", 1)[-1], argv[1:]
    if prog in _INTERPRETERS:
        code = next((args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-c", "-e")), None)
        if code is not None and _NETWORK_CODE.search(code):
            return f"{prog} network code"
        if "-m" in args:  # a module (python -m http.server): no script to judge by name
            return None
        script = next((a for a in args if not a.startswith("-")), "")
        if code is None and _FETCHING_NAME.search(script.rsplit("/", 1)[-1]):
            return f"{prog} {script}"
        if prog == "deno" and any(a.startswith("--allow-net") or a == "-A" for a in args):
            return "deno --allow-net"
        return None
    if "/" in argv[0] and _FETCHING_NAME.search(prog):  # ./fetch_data.sh
        return argv[0]
    return None


def network_command(command: str, *, package_installs: bool = True) -> str | None:
    """The network program a shell command runs ("curl", "git clone", "gh", "pip install"),
    "url" when it names a remote address, an interpreter running network code, or None
    for a local command."""
    argvs = list(_commands(_words(command)))
    for argv in argvs:
        if found := _argv_network(argv, package_installs):
            return found
    if _URL.search(command):
        return "url"
    for argv in argvs:
        if found := _argv_fetching_code(argv):
            return found
    return None
