; Per-user Windows installer of the one-folder build (Inno Setup 6), made by
;   python packaging/build.py --installer
; which passes /DAppVersion=<version> /DBuildDir=<dist\capadvisor-<version>-windows-x86_64> /DOutputDir=<dist>.
; No administrator rights: the program goes to %LOCALAPPDATA%\Programs\Capacity Advisor, the menu
; entry to the user's Start menu. Written for issue #33 and NOT run: no Windows machine was at hand.

#ifndef AppVersion
  #error Pass /DAppVersion=<version> (packaging/build.py --installer does)
#endif
#ifndef BuildDir
  #error Pass /DBuildDir=<the one-folder build> (packaging/build.py --installer does)
#endif
#ifndef OutputDir
  #define OutputDir "."
#endif

[Setup]
AppId={{6C1B1E2A-4F5D-4E8B-9B7A-CA9AC0DE0033}
AppName=Capacity Advisor
AppVersion={#AppVersion}
AppPublisher=Capacity Advisor
DefaultDirName={localappdata}\Programs\Capacity Advisor
DisableProgramGroupPage=yes
DisableDirPage=yes
PrivilegesRequired=lowest
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
OutputDir={#OutputDir}
OutputBaseFilename=capadvisor-{#AppVersion}-windows-x86_64-setup
Compression=lzma2
SolidCompression=yes
UninstallDisplayName=Capacity Advisor {#AppVersion}

[Files]
Source: "{#BuildDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{userprograms}\Capacity Advisor"; Filename: "{app}\capadvisor.exe"; Parameters: "gui"; WorkingDir: "{userdocs}"
