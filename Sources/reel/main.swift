import ReelApp
ReelApp.main()
