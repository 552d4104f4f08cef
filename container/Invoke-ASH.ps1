# SPDX-License-Identifier: Apache-2.0
# Invoke-ASH: run ash in its container image from PowerShell (Windows has
# no scanner sandbox; the container is the boundary).  Dot-source this file
# and call Invoke-ASH, or run the file with the same parameters.
#
# It builds the image from ash's source tree ($env:ASH_ROOT_DIR, else the
# checkout this file is in), then runs the command in it with the source
# directory read-only at /src and the output directory at /out.
# -Sandbox (or --sandbox) with a mode other than off throws with
# $LASTEXITCODE 5; any other value it cannot use throws with
# $LASTEXITCODE 3.  The scan gets --sandbox off last.  The config file is
# not read here and ASH_CONFIG is not passed in: pass -Config with a path
# relative to the source directory.  See invoke-ash(1).

function Invoke-ASH {
    [CmdletBinding()]
    param(
        [string]$SourceDir = (Get-Location).Path,
        [string]$OutputDir = '',
        [string]$OCIRunner = $env:OCI_RUNNER,
        [string]$Config = '',
        [string]$Sandbox = '',
        [string]$BuildTarget = 'non-root',
        [string]$ContainerUid = '',
        [string]$ContainerGid = '',
        [switch]$NoBuild,
        [switch]$NoRun,
        [switch]$Force,
        [switch]$Offline,
        [switch]$Quiet,
        [string]$Command = 'scan',
        [Parameter(ValueFromRemainingArguments = $true)]
        [string[]]$AshArgs = @()
    )

    function Stop-InvokeASH([int]$Code, [string]$Message) {
        $global:LASTEXITCODE = $Code
        throw "Invoke-ASH: $Message"
    }

    $sandboxModes = @('auto', 'bwrap', 'firejail', 'landlock', 'sandbox-exec')
    function Test-SandboxValue([string]$Value) {
        if ($Value -eq 'off') { return }
        if ($sandboxModes -contains $Value) {
            Stop-InvokeASH 5 "--sandbox $Value cannot be used with Invoke-ASH: the scanners inside the image are not sandboxed, the container is the boundary"
        }
        Stop-InvokeASH 3 "--sandbox '$Value' cannot be used: Invoke-ASH runs the scan in the container with --sandbox off"
    }

    if ($Sandbox -ne '') { Test-SandboxValue $Sandbox }
    if (@('non-root', 'ci') -notcontains $BuildTarget) {
        Stop-InvokeASH 5 "invalid value '$BuildTarget' for -BuildTarget (expected one of: non-root, ci)"
    }

    $source = (Resolve-Path -LiteralPath $SourceDir -ErrorAction SilentlyContinue)
    if ($null -eq $source -or -not (Test-Path -LiteralPath $source.Path -PathType Container)) {
        Stop-InvokeASH 3 "the source directory '$SourceDir' is not a directory"
    }
    $source = $source.Path

    # A path the scan in the container names below /src.
    function ConvertTo-SrcPath([string]$What, [string]$Path) {
        $parts = $Path -split '[\\/]'
        if ([System.IO.Path]::IsPathRooted($Path) -or $parts -contains '..') {
            Stop-InvokeASH 3 "$What '$Path' cannot be used: it must be a path relative to the source directory, which is all the scan in the container sees"
        }
        if (-not (Test-Path -LiteralPath (Join-Path $source $Path) -PathType Leaf)) {
            Stop-InvokeASH 3 "$What '$Path' is not a file in the source directory '$source'"
        }
        return '/src/' + ($parts -join '/')
    }

    # The remaining arguments: --sandbox is checked and taken, a config or
    # JSON document is named below /src, plugin modules are refused.
    $inner = New-Object System.Collections.Generic.List[string]
    for ($i = 0; $i -lt $AshArgs.Count; $i++) {
        $a = $AshArgs[$i]
        $name = $a; $value = $null
        if ($a -match '^(--[^=]+)=(.*)$') { $name = $Matches[1]; $value = $Matches[2] }
        if (@('--sandbox', '--config', '-c', '--cli-json-input', '--ash-plugin-modules') -contains $name) {
            if ($null -eq $value) {
                if ($i + 1 -ge $AshArgs.Count) { Stop-InvokeASH 5 "option '$name' needs a value" }
                $i++; $value = $AshArgs[$i]
            }
            switch ($name) {
                '--sandbox' { Test-SandboxValue $value }
                '--ash-plugin-modules' { Stop-InvokeASH 3 "--ash-plugin-modules cannot be used: plugin modules are host paths, which the scan in the container does not see" }
                '--cli-json-input' { $inner.Add('--cli-json-input=' + (ConvertTo-SrcPath '--cli-json-input' $value)) }
                default { $Config = $value }
            }
            continue
        }
        $inner.Add($a)
    }
    if ($Config -ne '') { $inner.Add('--config=' + (ConvertTo-SrcPath '-Config' $Config)) }

    if ($env:ASH_CONFIG) {
        Write-Warning "ASH_CONFIG is set, but Invoke-ASH does not pass it to the scan in the container, which sees only the source directory: pass the config with -Config PATH, relative to the source directory"
    }

    # The runtime, never one inside the source directory.
    $candidates = if ($OCIRunner) { @($OCIRunner) } else { @('finch', 'docker', 'nerdctl', 'podman') }
    $oci = $null
    foreach ($c in $candidates) {
        foreach ($cmd in @(Get-Command -Name $c -CommandType Application -ErrorAction SilentlyContinue)) {
            if (-not $cmd.Source.StartsWith($source + [System.IO.Path]::DirectorySeparatorChar)) { $oci = $cmd.Source; break }
        }
        if ($oci) { break }
    }
    if (-not $oci) {
        if ($OCIRunner) { Stop-InvokeASH 3 "the container runtime '$OCIRunner' was not found on PATH (a runtime inside the source directory does not count); nothing was scanned" }
        Stop-InvokeASH 3 "no container runtime (finch, docker, nerdctl or podman) was found on PATH; install one, or name it with -OCIRunner or OCI_RUNNER; nothing was scanned"
    }

    $image = if ($env:ASH_IMAGE_NAME) { $env:ASH_IMAGE_NAME } else { "automated-security-helper:$BuildTarget" }
    $uid = if ($ContainerUid) { $ContainerUid } elseif ($IsLinux -or $IsMacOS) { (& id -u) } else { '1000' }
    $gid = if ($ContainerGid) { $ContainerGid } elseif ($IsLinux -or $IsMacOS) { (& id -g) } else { '1000' }
    if ("$uid" -notmatch '^[0-9]+$' -or "$gid" -notmatch '^[0-9]+$') {
        Stop-InvokeASH 5 "invalid value for -ContainerUid or -ContainerGid (expected a numeric id)"
    }

    if (-not $NoBuild) {
        $root = if ($env:ASH_ROOT_DIR) { $env:ASH_ROOT_DIR } else { Split-Path -Parent $PSScriptRoot }
        if (-not (Test-Path -LiteralPath (Join-Path $root 'container/Containerfile') -PathType Leaf) -or
            -not (Test-Path -LiteralPath (Join-Path $root 'configure.ac') -PathType Leaf)) {
            Stop-InvokeASH 3 "cannot build the image: no ash source tree (container/Containerfile and configure.ac) in '$root'; set ASH_ROOT_DIR to an ash checkout, or pass -NoBuild to run an image built before; nothing was scanned"
        }
        $build = @('build', '--build-arg', "UID=$uid", '--build-arg', "GID=$gid",
            '--tag', $image, '--target', $BuildTarget,
            '--file', (Join-Path $root 'container/Containerfile'),
            '--build-arg', ('OFFLINE=' + $(if ($Offline) { 'YES' } else { 'NO' })),
            '--build-arg', 'OFFLINE_SEMGREP_RULESETS=p/ci')
        if ($Force) { $build += '--no-cache' }
        if ($Quiet) { $build += '-q' }
        & $oci @build $root
        if ($LASTEXITCODE -ne 0) { Stop-InvokeASH $LASTEXITCODE "building the image $image failed; nothing was scanned" }
    }
    if ($NoRun) { return }
    if ($NoBuild) {
        & $oci image inspect $image *> $null
        if ($LASTEXITCODE -ne 0) { Stop-InvokeASH 3 "the image $image is missing; build it (leave out -NoBuild); nothing was scanned" }
    }

    if ($OutputDir -eq '') { $OutputDir = Join-Path $source '.ash/ash_output' }
    $out = [System.IO.Path]::GetFullPath($OutputDir)
    if ($out.StartsWith($source)) {
        $p = $source
        foreach ($part in ($out.Substring($source.Length) -split '[\\/]' | Where-Object { $_ -ne '' })) {
            $p = Join-Path $p $part
            $item = Get-Item -LiteralPath $p -Force -ErrorAction SilentlyContinue
            if ($item -and $item.LinkType) {
                Stop-InvokeASH 3 "the output directory '$out' is reached through the link '$p'; nothing was scanned"
            }
        }
    }
    if (($source + [System.IO.Path]::DirectorySeparatorChar).StartsWith($out.TrimEnd('\', '/') + [System.IO.Path]::DirectorySeparatorChar)) {
        Stop-InvokeASH 3 "the output directory '$out' holds the source directory, which the container must not write to; nothing was scanned"
    }
    New-Item -ItemType Directory -Force -Path $out | Out-Null
    foreach ($p in @($source, $out)) {
        if ($p -match '[,"]') { Stop-InvokeASH 3 "the path '$p' holds a character the container runtime's --mount option cannot carry; nothing was scanned" }
    }

    $run = @('run', '--rm',
        '-e', "ASH_ACTUAL_SOURCE_DIR=$source", '-e', "ASH_ACTUAL_OUTPUT_DIR=$out",
        '-e', 'ASH_DEBUG=NO',
        '--mount', "type=bind,source=$source,destination=/src,readonly",
        '--mount', "type=bind,source=$out,destination=/out")
    if ($out -ne $source -and $out.StartsWith($source + [System.IO.Path]::DirectorySeparatorChar)) {
        $run += @('--mount', ('type=tmpfs,destination=/src' + $out.Substring($source.Length).Replace('\', '/')))
    }
    if ($Offline) { $run += '--network=none' }
    $run += $image
    if ($Command -eq 'scan') {
        $run += @('ash', 'scan', '--source-dir', '/src', '--output-dir', '/out', '--mode', 'local')
        if ($Offline) { $run += '--offline' }
        if ($Quiet) { $run += '--quiet' }
        $run += $inner
        $run += @('--sandbox', 'off')
    } else {
        $run += 'ash'
        $run += ($Command -split ' ')
        $run += @('--source-dir', '/src')
        $run += $inner
    }
    & $oci @run
}

if ($MyInvocation.InvocationName -ne '.') {
    Invoke-ASH @args
    exit $LASTEXITCODE
}
