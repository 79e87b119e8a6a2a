# The course's test command on Windows. The tests drive Debian's headless Chromium and Jupyter clients
# (/usr/bin/chromium, /usr/bin/python3 with nbclient), which Windows does not have: run them where
# ./test.sh can set them up, and stop here with what to do instead of failing deep inside a test.
$ErrorActionPreference = 'Stop'
Write-Host @"
test.ps1: the tests need Linux (Debian or Ubuntu): they open reports in Debian's Chromium and run the
notebooks through Jupyter's own Python clients at /usr/bin/python3. On Windows, run them in one of:
  - WSL (Ubuntu):     wsl ./test.sh          (installs chromium, python3-nbclient, ... with apt-get)
  - the dev container: VS Code 'Dev Containers: Reopen in Container', then ./test.sh in its terminal
The course itself (.\setup.ps1, notebooks, perflab run) works on Windows without them.
"@
exit 2
